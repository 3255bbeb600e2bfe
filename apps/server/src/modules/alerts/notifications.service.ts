import type { AlertSettings } from '@portal/shared'
import type { Db } from '../../db/client'
import { notFound } from '../../lib/app-error'
import { alertSettingsRepository as settings } from './alert-settings.repository'
import type { AlertsService } from './alerts.service'
import { notificationsRepository as notifications, type Viewer } from './notifications.repository'

const NO_ALERT = 'Notification not found.'
const NO_COMPANY = 'Company not found'

/** Issue #17: the bell's notifications, a client's scoped to its company in the SQL. */
export function createNotificationsService(db: Db) {
  const unread = async (viewer: Viewer) => ({ unreadCount: await notifications.unreadCount(db, viewer) })
  return {
    async list(viewer: Viewer, query: { limit: number; before?: number }) {
      const page = await notifications.list(db, viewer, query)
      return { ...page, ...(await unread(viewer)) }
    },
    async markRead(viewer: Viewer, alertId: number) {
      // Another company's alert is answered exactly as a missing one.
      if (!(await notifications.markRead(db, viewer, alertId))) throw notFound(NO_ALERT)
      return unread(viewer)
    },
    async markAllRead(viewer: Viewer) {
      await notifications.markAllRead(db, viewer)
      return unread(viewer)
    },
    flags: (viewer: Viewer, ids: string[]) => notifications.flags(db, viewer, ids),
  }
}
export type NotificationsService = ReturnType<typeof createNotificationsService>

/** Issue #17: thresholds, global and per company; a change is evaluated at once. */
export function createAlertSettingsService(db: Db, alerts: Pick<AlertsService, 'requestAll'>) {
  return {
    global: () => settings.global(db),
    async setGlobal(values: AlertSettings) {
      const saved = await settings.setGlobal(db, values)
      alerts.requestAll()
      return saved
    },
    async forCompany(companyId: string) {
      return (await settings.forCompany(db, companyId)) ?? Promise.reject(notFound(NO_COMPANY))
    },
    async setCompany(companyId: string, values: AlertSettings) {
      const saved = await settings.setCompany(db, companyId, values)
      if (!saved) throw notFound(NO_COMPANY)
      alerts.requestAll()
      return saved
    },
  }
}
export type AlertSettingsService = ReturnType<typeof createAlertSettingsService>
