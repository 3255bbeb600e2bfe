import type { FastifyInstance } from 'fastify'
import type { AppConfig } from '../../config'
import type { Database } from '../../db/client'
import { createSmtpTransport, type MailTransport } from '../mail/mail-transport'
import outboxRoutes from '../mail/outbox.routes'
import { createOutboxService } from '../mail/outbox.service'
import { createOutboxWorker, type OutboxWorker } from '../mail/outbox.worker'
import { defaultReportAttachment, type ReportAttachmentBuilder } from '../mail/report-attachment'
import { queueScheduledMails } from '../mail/scheduled-mails'
import preferencesRoutes from '../profile/preferences.routes'
import { createPreferencesService } from '../profile/preferences.service'
import { alertSettingsRoutes, notificationsRoutes } from './alerts.routes'
import { createAlertsService, type AlertsService } from './alerts.service'
import { createAlertSettingsService, createNotificationsService } from './notifications.service'

declare module 'fastify' {
  interface FastifyInstance {
    /** Issue #17: the alert evaluation of this process. */
    alerts: AlertsService
    /** Issue #17: the outbox worker; null without SMTP_URL (mails stay in the outbox). */
    outboxWorker: OutboxWorker | null
    /** Issue #17: queues due digests and reports now (the minute tick; tests call it). */
    queueScheduledMails(now?: Date): Promise<number>
  }
}

export interface AlertsModuleOptions {
  config: AppConfig
  database: Database
  /** Tests: a transport of their own instead of SMTP_URL's. */
  mailTransport?: MailTransport
  /** Tests: another builder (default: a client's completion summary as .xlsx, the rest CSV). */
  reportAttachments?: ReportAttachmentBuilder
  /** Background timers (outbox every 15 s, scheduled mails every minute); tests drive them by hand. */
  timers?: boolean
}

export const OUTBOX_POLL_MS = 15_000
export const SCHEDULE_POLL_MS = 60_000

/**
 * Wires issue #17: alerts evaluated after every sync run (app.sync's listener) and postback
 * batch (the webhook calls app.alerts.notePostback), the outbox worker and the scheduled mails,
 * and the routes: /api/notifications, /api/admin/alert-settings, /api/admin/companies/:id/alert-settings,
 * /api/admin/outbox and /api/profile/preferences.
 */
export async function registerAlerts(app: FastifyInstance, options: AlertsModuleOptions) {
  const { config, database } = options
  const transport =
    options.mailTransport ?? (config.smtpUrl ? createSmtpTransport(config.smtpUrl, config.mailFrom) : null)
  const domain = new URL(config.publicUrl).hostname || 'localhost'
  const worker = transport ? createOutboxWorker({ db: database.db, transport, log: app.log, domain }) : null
  const alerts = createAlertsService({
    db: database.db,
    publicUrl: config.publicUrl,
    log: app.log,
    onMailQueued: () => worker?.nudge(),
  })
  app.decorate('alerts', alerts)
  app.decorate('outboxWorker', worker)
  const scheduled = {
    db: database.db,
    publicUrl: config.publicUrl,
    attachments: options.reportAttachments ?? defaultReportAttachment,
  }
  app.decorate('queueScheduledMails', async (now: Date = new Date()) => {
    const queued = await queueScheduledMails(scheduled, now)
    if (queued > 0) worker?.nudge()
    return queued
  })
  app.sync?.onFinished(() => alerts.requestAll())

  const db = database.db
  await app.register(notificationsRoutes, {
    prefix: '/api/notifications',
    notifications: createNotificationsService(db),
  })
  await app.register(alertSettingsRoutes, { prefix: '/api/admin', settings: createAlertSettingsService(db, alerts) })
  await app.register(outboxRoutes, {
    prefix: '/api/admin',
    outbox: createOutboxService(db, { smtpConfigured: config.smtpUrl !== null }),
  })
  await app.register(preferencesRoutes, { prefix: '/api/profile', preferences: createPreferencesService(db) })

  let scheduleTimer: NodeJS.Timeout | null = null
  app.addHook('onReady', async () => {
    if (options.timers === false) return
    worker?.start(OUTBOX_POLL_MS)
    scheduleTimer = setInterval(() => {
      app.queueScheduledMails().catch((err: unknown) => app.log.error({ err }, 'scheduled mails failed'))
    }, SCHEDULE_POLL_MS)
    scheduleTimer.unref()
  })
  app.addHook('onClose', async () => {
    if (scheduleTimer) clearInterval(scheduleTimer)
    await alerts.close()
    await worker?.stop()
    transport?.close()
  })
}
