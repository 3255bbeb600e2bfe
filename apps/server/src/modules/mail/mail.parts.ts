import type { FastifyBaseLogger } from 'fastify'
import type { AppConfig } from '../../config'
import type { Db } from '../../db/client'
import { createSmtpTransport, type MailTransport } from './mail-transport'
import type { OutboxRepository } from './outbox.repository'
import { createOutboxWorker, type OutboxWorker } from './outbox.worker'
import { defaultReportAttachment, type ReportAttachmentBuilder } from './report-attachment'
import { queueScheduledMails } from './scheduled-mails'
import type { ScheduledMailsRepository } from './scheduled-mails.repository'

export interface MailPartsOptions {
  /** Tests: a transport of their own instead of SMTP_URL's. */
  mailTransport?: MailTransport
  /** Tests: another builder (default: a client's completion summary as .xlsx, the rest CSV). */
  reportAttachments?: ReportAttachmentBuilder
}

/**
 * mail objects, built by the composition root (app.ts), which also starts and stops
 * them; the alert evaluation (modules/alerts) queues its mails through the same outbox.
 */
export interface MailParts {
  /** The mail transport (SMTP_URL's or a test's); null without one (mails stay in the outbox). */
  transport: MailTransport | null
  /** The outbox worker; null without a transport. */
  worker: OutboxWorker | null
  /** Queues due digests and reports now, then nudges the worker (the minute tick; tests call it). */
  queueScheduledMails(now?: Date): Promise<number>
}

/** How often the outbox worker polls and the scheduled mails are checked (app.ts starts both). */
export const OUTBOX_POLL_MS = 15_000
export const SCHEDULE_POLL_MS = 60_000

/**
 * The mail transport, the outbox worker and the scheduled mails' tick. Plain objects: nothing is
 * started here (app.ts does it).
 */
export function createMailParts(
  config: AppConfig,
  deps: { db: Db; outbox: OutboxRepository; scheduled: ScheduledMailsRepository },
  log: FastifyBaseLogger,
  options: MailPartsOptions = {},
): MailParts {
  const transport =
    options.mailTransport ?? (config.smtpUrl ? createSmtpTransport(config.smtpUrl, config.mailFrom) : null)
  const domain = new URL(config.publicUrl).hostname || 'localhost'
  const worker = transport ? createOutboxWorker({ outbox: deps.outbox, transport, log, domain }) : null
  const scheduled = {
    ...deps,
    publicUrl: config.publicUrl,
    attachments: options.reportAttachments ?? defaultReportAttachment,
  }
  return {
    transport,
    worker,
    async queueScheduledMails(now: Date = new Date()) {
      const queued = await queueScheduledMails(scheduled, now)
      if (queued > 0) worker?.nudge()
      return queued
    },
  }
}

/** Every SCHEDULE_POLL_MS a check for due mails; the timer never keeps the process alive. */
export function startScheduledMails(parts: Pick<MailParts, 'queueScheduledMails'>, log: FastifyBaseLogger) {
  const timer = setInterval(() => {
    parts.queueScheduledMails().catch((err: unknown) => log.error({ err }, 'scheduled mails failed'))
  }, SCHEDULE_POLL_MS)
  timer.unref()
  return { stop: () => clearInterval(timer) }
}
