import type { AlertSettings } from '@portal/shared'
import type { Db, DbOrTx } from '../../db/client'
import type { Actor } from '../../lib/actor'
import type { ActivityRepository } from '../activity-logs/activity.repository'
import { notFound } from '../../lib/app-error'
import type { AlertSettingsRepository } from './alert-settings.repository'
import type { AlertsService } from './alerts.service'
import type { NotificationsRepository, Viewer } from './notifications.repository'

const NO_ALERT = 'Notification not found.'
const NO_COMPANY = 'Company not found'

/** The bell's notifications, a client's scoped to its company in the SQL. */
export function createNotificationsService(notifications: NotificationsRepository) {
  const unread = async (viewer: Viewer) => ({ unreadCount: await notifications.unreadCount(viewer) })
  return {
    async list(viewer: Viewer, query: { limit: number; before?: number }) {
      const page = await notifications.list(viewer, query)
      return { ...page, ...(await unread(viewer)) }
    },
    async markRead(viewer: Viewer, alertId: number) {
      // Another company's alert is answered exactly as a missing one.
      if (!(await notifications.markRead(viewer, alertId))) throw notFound(NO_ALERT)
      return unread(viewer)
    },
    async markAllRead(viewer: Viewer) {
      await notifications.markAllRead(viewer)
      return unread(viewer)
    },
    flags: (viewer: Viewer, ids: string[]) => notifications.flags(viewer, ids),
  }
}
export type NotificationsService = ReturnType<typeof createNotificationsService>

export interface SettingsContext {
  actor: Actor | null
  ip: string
}

const levels = (s: AlertSettings) => ({ usageThresholds: s.usageThresholds, expiryDays: s.expiryDays })

/**
 * Thresholds, global and per company; a change is evaluated at once. Every change
 * and its ALERT_SETTINGS_UPDATED row (before and after) commit together, as other admin changes.
 */
export function createAlertSettingsService(deps: {
  db: Db
  settings: AlertSettingsRepository
  activity: ActivityRepository
  alerts: Pick<AlertsService, 'requestAll'>
}) {
  const { db, settings, activity, alerts } = deps
  const audit = (tx: DbOrTx, ctx: SettingsContext, details: Record<string, unknown>) =>
    activity.record({ action: 'ALERT_SETTINGS_UPDATED', actor: ctx.actor, ipAddress: ctx.ip, details }, tx)
  return {
    global: () => settings.global(),
    async setGlobal(values: AlertSettings, ctx: SettingsContext) {
      const saved = await db.transaction(async (tx) => {
        const before = await settings.global(tx)
        const after = await settings.setGlobal(values, tx)
        await audit(tx, ctx, { scope: 'global', before, after })
        await alerts.requestAll(tx)
        return after
      })
      return saved
    },
    async forCompany(companyId: string) {
      return (await settings.forCompany(companyId)) ?? Promise.reject(notFound(NO_COMPANY))
    },
    async setCompany(companyId: string, values: AlertSettings, ctx: SettingsContext) {
      const saved = await db.transaction(async (tx) => {
        const before = await settings.forCompany(companyId, tx)
        if (!before) return null
        const after = await settings.setCompany(companyId, values, tx)
        await audit(tx, ctx, {
          scope: 'company',
          companyId,
          before: before.overridden ? levels(before) : 'global',
          after: levels(after!),
        })
        await alerts.requestAll(tx)
        return after
      })
      if (!saved) throw notFound(NO_COMPANY)
      return saved
    },
    /** "Use the global thresholds": the override goes; nothing is written when there was none. */
    async useGlobal(companyId: string, ctx: SettingsContext) {
      const found = await db.transaction(async (tx) => {
        const before = await settings.forCompany(companyId, tx)
        if (!before) return false
        if (before.overridden) {
          await settings.clearCompany(companyId, tx)
          await audit(tx, ctx, { scope: 'company', companyId, before: levels(before), after: 'global' })
          await alerts.requestAll(tx)
        }
        return true
      })
      if (!found) throw notFound(NO_COMPANY)
      return (await settings.forCompany(companyId))!
    },
  }
}
export type AlertSettingsService = ReturnType<typeof createAlertSettingsService>
