import type { FastifyBaseLogger } from 'fastify'
import type { AppConfig } from '../../config'
import type { Db } from '../../db/client'
import { createSmtpTransport, type MailTransport } from '../mail/mail-transport'
import { createOutboxWorker, type OutboxWorker } from '../mail/outbox.worker'
import { defaultReportAttachment, type ReportAttachmentBuilder } from '../mail/report-attachment'
import { queueScheduledMails } from '../mail/scheduled-mails'
import { createAlertsService, type AlertsService } from './alerts.service'

export interface AlertsPartsOptions {
  /** Tests: a transport of their own instead of SMTP_URL's. */
  mailTransport?: MailTransport
  /** Tests: another builder (default: a client's completion summary as .xlsx, the rest CSV). */
  reportAttachments?: ReportAttachmentBuilder
}

/** Issue #17's objects, built by the composition root (app.ts), which also starts and stops them. */
export interface AlertsParts {
  /** The mail transport (SMTP_URL's or a test's); null without one (mails stay in the outbox). */
  transport: MailTransport | null
  /** The outbox worker; null without a transport. */
  worker: OutboxWorker | null
  /** The alert evaluation of this process. */
  alerts: AlertsService
  /** Queues due digests and reports now, then nudges the worker (the minute tick; tests call it). */
  queueScheduledMails(now?: Date): Promise<number>
}

/** How often the outbox worker polls and the scheduled mails are checked (app.ts starts both). */
export const OUTBOX_POLL_MS = 15_000
export const SCHEDULE_POLL_MS = 60_000

/**
 * The mail transport, the outbox worker, the alert evaluation and the scheduled mails' tick.
 * Plain objects: nothing is started here, and nothing listens to the sync yet (app.ts does both).
 */
export function createAlertsParts(
  config: AppConfig,
  db: Db,
  log: FastifyBaseLogger,
  options: AlertsPartsOptions = {},
): AlertsParts {
  const transport =
    options.mailTransport ?? (config.smtpUrl ? createSmtpTransport(config.smtpUrl, config.mailFrom) : null)
  const domain = new URL(config.publicUrl).hostname || 'localhost'
  const worker = transport ? createOutboxWorker({ db, transport, log, domain }) : null
  const alerts = createAlertsService({ db, publicUrl: config.publicUrl, log, onMailQueued: () => worker?.nudge() })
  const scheduled = {
    db,
    publicUrl: config.publicUrl,
    attachments: options.reportAttachments ?? defaultReportAttachment,
  }
  return {
    transport,
    worker,
    alerts,
    async queueScheduledMails(now: Date = new Date()) {
      const queued = await queueScheduledMails(scheduled, now)
      if (queued > 0) worker?.nudge()
      return queued
    },
  }
}

/** Every SCHEDULE_POLL_MS a check for due mails; the timer never keeps the process alive. */
export function startScheduledMails(parts: Pick<AlertsParts, 'queueScheduledMails'>, log: FastifyBaseLogger) {
  const timer = setInterval(() => {
    parts.queueScheduledMails().catch((err: unknown) => log.error({ err }, 'scheduled mails failed'))
  }, SCHEDULE_POLL_MS)
  timer.unref()
  return { stop: () => clearInterval(timer) }
}
