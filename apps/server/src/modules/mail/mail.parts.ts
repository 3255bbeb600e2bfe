import type { FastifyBaseLogger } from 'fastify'
import type { AppConfig } from '../../config'
import type { Db, DbOrTx } from '../../db/client'
import { defineSweep, type JobEngine } from '../jobs/job-engine'
import { createSmtpTransport, type MailTransport } from './mail-transport'
import type { NewMail, OutboxRepository } from './outbox.repository'
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

/** The outbox's send pass: one waiting at most (a pass sends everything due; claims keep passes apart). */
export const MAIL_OUTBOX_JOB = 'mail-outbox'
/** The check for due digests and reports. */
export const MAIL_SCHEDULED_JOB = 'mail-scheduled'

/**
 * The outbox as every module queues mail: the rows and the job that sends them are written in
 * the caller's transaction, so a mail is sent soon after its change commits, and never for a
 * change that rolled back.
 */
export interface MailOutbox {
  enqueue(mails: NewMail[], tx?: DbOrTx): Promise<number>
}

export function createMailOutbox(outbox: Pick<OutboxRepository, 'enqueue'>, jobs: Pick<JobEngine, 'send'>): MailOutbox {
  return {
    async enqueue(mails, tx) {
      const queued = await outbox.enqueue(mails, tx)
      if (queued > 0) await jobs.send(MAIL_OUTBOX_JOB, {}, { tx })
      return queued
    },
  }
}

/**
 * mail objects, built by the composition root (app.ts); the alert evaluation (modules/alerts)
 * queues its mails through the same outbox.
 */
export interface MailParts {
  /** The mail transport (SMTP_URL's or a test's); null without one (mails stay in the outbox). */
  transport: MailTransport | null
  /** The outbox worker; null without a transport. */
  worker: OutboxWorker | null
  /** Queues due digests and reports now (the mail-scheduled job; tests call it). */
  queueScheduledMails(now?: Date): Promise<number>
}

/** The mail transport, the outbox worker and the scheduled mails' pass. Nothing is started here. */
export function createMailParts(
  config: AppConfig,
  deps: { db: Db; outbox: OutboxRepository; mails: MailOutbox; scheduled: ScheduledMailsRepository },
  log: FastifyBaseLogger,
  options: MailPartsOptions = {},
): MailParts {
  const transport =
    options.mailTransport ?? (config.smtpUrl ? createSmtpTransport(config.smtpUrl, config.mailFrom) : null)
  const domain = new URL(config.publicUrl).hostname || 'localhost'
  const worker = transport ? createOutboxWorker({ outbox: deps.outbox, transport, log, domain }) : null
  const scheduled = {
    db: deps.db,
    scheduled: deps.scheduled,
    outbox: deps.mails,
    publicUrl: config.publicUrl,
    attachments: options.reportAttachments ?? defaultReportAttachment,
  }
  return {
    transport,
    worker,
    queueScheduledMails: (now: Date = new Date()) => queueScheduledMails(scheduled, now),
  }
}

/**
 * The mail jobs and their schedules: the outbox pass every minute (mails whose retry came due;
 * new mails send their own job), and the check for due digests and reports every minute.
 */
export function mailJobs(parts: MailParts) {
  const outbox = defineSweep(MAIL_OUTBOX_JOB, async () => {
    // Without SMTP_URL mails stay in the outbox (/admin/outbox) until one is set.
    if (!parts.worker) return { sent: 0, message: 'SMTP_URL is not set: mails stay in the outbox.' }
    return { sent: await parts.worker.runOnce() }
  })
  // The next minute's check covers a failed one.
  const scheduled = defineSweep(MAIL_SCHEDULED_JOB, async () => ({ queued: await parts.queueScheduledMails() }), {
    retryLimit: 0,
  })
  return {
    jobs: [outbox, scheduled],
    schedules: [
      { name: MAIL_OUTBOX_JOB, cron: '* * * * *' },
      { name: MAIL_SCHEDULED_JOB, cron: '* * * * *' },
    ],
  }
}
