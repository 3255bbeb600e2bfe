import { alertMessage, can, ownCompanyOnly, usagePercent, type Role } from '@portal/shared'
import type { Db, Tx } from '../../db/client'
import { renderDigestMail, renderReportMail } from './mail-render'
import type { NewMail, OutboxRepository } from './outbox.repository'
import type { ScheduledMailsRepository } from './scheduled-mails.repository'
import { COMPLETION_SUMMARY, type ReportAttachmentBuilder, type ReportTable } from './report-attachment'

/**
 * The weekly digest and the weekly or monthly report, sent at the user's chosen hour
 * in the user's time zone, once per period across every server process: a (user, kind, period)
 * row of scheduled_mail is inserted in the transaction that queues the mail, and a second process
 * finds it taken. A period missed while no server ran is sent when one next runs within it.
 */

interface Due {
  userId: string
  email: string
  role: Role
  companyId: string | null
  kind: 'digest' | 'report'
  period: string
}

/** Who is due now: local time past the period's start plus the chosen hour, and not yet sent. */
async function dueMails(scheduled: ScheduledMailsRepository, now: Date): Promise<Due[]> {
  const rows = await scheduled.dueRows(now)
  return rows.map((r) => ({
    userId: String(r.user_id),
    email: String(r.email),
    role: String(r.role) as Role,
    companyId: r.company_id == null ? null : String(r.company_id),
    kind: r.kind as Due['kind'],
    period: String(r.period),
  }))
}

async function digestMail(
  scheduled: ScheduledMailsRepository,
  tx: Tx,
  due: Due,
  now: Date,
  publicUrl: string,
): Promise<NewMail> {
  const viewer = { id: due.userId, role: due.role, companyId: due.companyId }
  const since = new Date(now.getTime() - 7 * 24 * 60 * 60_000).toISOString()
  const rows = await scheduled.recentAlerts(viewer, since, tx)
  const lines = rows.map((r) => ({
    message: alertMessage({
      kind: r.kind as 'usage',
      level: Number(r.level),
      courseTitle: String(r.course_title),
      companyName: String(r.company_name),
      registrationCount: Number(r.registration_count),
      registrationCap: Number(r.registration_cap),
    }),
    dispatchId: String(r.dispatch_id),
    createdAt: new Date(r.created_at as string),
  }))
  const mail = renderDigestMail(lines, publicUrl, due.period)
  return {
    idempotencyKey: `digest:${due.userId}:${due.period}`,
    kind: 'digest',
    userId: due.userId,
    to: due.email,
    ...mail,
  }
}

/** A client: its company's completion summary. Staff: license usage of the companies they manage (sales) or all. */
async function reportTable(
  scheduled: ScheduledMailsRepository,
  tx: Tx,
  due: Due,
): Promise<{ title: string; table: ReportTable; summary: string[] }> {
  if (ownCompanyOnly(due.role)) {
    const rows = await scheduled.companySummary(due.companyId ?? '', tx)
    const completed = rows.reduce((n, r) => n + Number(r.completed), 0)
    const total = rows.reduce((n, r) => n + Number(r.completed) + Number(r.incomplete) + Number(r.not_attempted), 0)
    return {
      title: `Completion summary (${due.period})`,
      summary: [`${rows.length} dispatches, ${total} registrations, ${completed} completed.`],
      table: {
        name: `${COMPLETION_SUMMARY}${due.period}`,
        columns: ['Course', 'Status', 'Registrations', 'Cap', 'Learners', 'Completed', 'Incomplete', 'Not Started'],
        rows: rows.map((r) => [
          String(r.course_title),
          r.enabled ? 'Enabled' : 'Disabled',
          Number(r.registration_count),
          Number(r.registration_cap) > 0 ? Number(r.registration_cap) : 'Unlimited',
          Number(r.learners),
          Number(r.completed),
          Number(r.incomplete),
          Number(r.not_attempted),
        ]),
      },
    }
  }
  const managerId = can(due.role, 'company.readManagedOnly') ? due.userId : null
  const rows = await scheduled.licenseUsage(managerId, tx)
  const capped = rows.filter((r) => Number(r.registration_cap) > 0)
  const used = capped.reduce((n, r) => n + Math.min(Number(r.registration_count), Number(r.registration_cap)), 0)
  const capacity = capped.reduce((n, r) => n + Number(r.registration_cap), 0)
  const percent = usagePercent(used, capacity)
  return {
    title: `License usage summary (${due.period})`,
    summary: [
      `${rows.length} dispatches in ${new Set(rows.map((r) => r.company)).size} companies.`,
      percent === null ? 'No capped dispatches.' : `Licenses used: ${used} of ${capacity} (${percent}%).`,
    ],
    table: {
      name: `license-usage-${due.period}`,
      columns: ['Client', 'Course', 'Status', 'Registrations', 'Cap', 'Usage %', 'Expiry Date'],
      rows: rows.map((r) => [
        String(r.company),
        String(r.course_title),
        r.enabled ? 'Enabled' : 'Disabled',
        Number(r.registration_count),
        Number(r.registration_cap) > 0 ? Number(r.registration_cap) : 'Unlimited',
        usagePercent(Number(r.registration_count), Number(r.registration_cap)),
        r.expiration_date ? new Date(r.expiration_date as string).toISOString().slice(0, 10) : null,
      ]),
    },
  }
}

export interface ScheduledMailsOptions {
  db: Db
  scheduled: ScheduledMailsRepository
  outbox: Pick<OutboxRepository, 'enqueue'>
  publicUrl: string
  attachments: ReportAttachmentBuilder
}

/** One pass: queues every due digest and report (each in its own transaction); returns how many. */
export async function queueScheduledMails(
  { db, scheduled, outbox, publicUrl, attachments }: ScheduledMailsOptions,
  now: Date,
): Promise<number> {
  let queued = 0
  for (const due of await dueMails(scheduled, now)) {
    queued += await db.transaction(async (tx) => {
      const claimed = await scheduled.claimPeriod(due, tx)
      if (!claimed) return 0
      if (due.kind === 'digest') return outbox.enqueue([await digestMail(scheduled, tx, due, now, publicUrl)], tx)
      const { title, table, summary } = await reportTable(scheduled, tx, due)
      const file = await attachments.build(table)
      const mail = renderReportMail(title, summary, file.filename, publicUrl)
      return outbox.enqueue(
        [
          {
            idempotencyKey: `report:${due.userId}:${due.period}`,
            kind: 'report',
            userId: due.userId,
            to: due.email,
            ...mail,
            attachments: [file],
          },
        ],
        tx,
      )
    })
  }
  return queued
}
