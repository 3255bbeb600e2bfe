import { sql } from 'drizzle-orm'
import { alertMessage, can, ownCompanyOnly, usagePercent, type Role } from '@portal/shared'
import type { Db, Tx } from '../../db/client'
import { visibleTo } from '../../db/alert-visibility'
import { renderDigestMail, renderReportMail } from './mail-render'
import { outboxRepository, type NewMail } from './outbox.repository'
import { COMPLETION_SUMMARY, type ReportAttachmentBuilder, type ReportTable } from './report-attachment'
import { rowsOf } from '../../db/statement'

/**
 * The weekly digest and the weekly or monthly report, sent at the user's chosen hour
 * in the user's time zone, once per period across every server process: a (user, kind, period)
 * row of scheduled_mail is inserted in the transaction that queues the mail, and a second process
 * finds it taken. A period missed while no server ran is sent when one next runs within it.
 */

const PER_PASS = 50
const MAX_REPORT_ROWS = 50_000

interface Due {
  userId: string
  email: string
  role: Role
  companyId: string | null
  kind: 'digest' | 'report'
  period: string
}

/** Who is due now: local time past the period's start plus the chosen hour, and not yet sent. */
async function dueMails(db: Db, now: Date): Promise<Due[]> {
  const at = now.toISOString()
  const rows = rowsOf(
    await db.execute(sql`
    with p as (
      select p.user_id, u.email, u.role, u.company_id, p.weekly_digest, p.report_frequency, p.report_hour,
        (${at}::timestamptz at time zone p.time_zone) as local
      from user_preference p join app_user u on u.id = p.user_id
      where u.status = 'active' and (p.weekly_digest or p.report_frequency <> 'off')
    ), wanted as (
      select user_id, email, role, company_id, 'digest' as kind, to_char(local, 'IYYY-"W"IW') as period,
        date_trunc('week', local) + report_hour * interval '1 hour' as due_at, local
      from p where weekly_digest
      union all
      select user_id, email, role, company_id, 'report',
        case report_frequency when 'weekly' then to_char(local, 'IYYY-"W"IW') else to_char(local, 'YYYY-MM') end,
        date_trunc(case report_frequency when 'weekly' then 'week' else 'month' end, local) + report_hour * interval '1 hour',
        local
      from p where report_frequency <> 'off'
    )
    select w.user_id, w.email, w.role, w.company_id, w.kind, w.period from wanted w
    where w.local >= w.due_at
      and not exists (select 1 from scheduled_mail s where s.user_id = w.user_id and s.kind = w.kind and s.period = w.period)
    order by w.user_id, w.kind
    limit ${PER_PASS}`),
  )
  return rows.map((r) => ({
    userId: String(r.user_id),
    email: String(r.email),
    role: String(r.role) as Role,
    companyId: r.company_id == null ? null : String(r.company_id),
    kind: r.kind as Due['kind'],
    period: String(r.period),
  }))
}

async function digestMail(tx: Tx, due: Due, now: Date, publicUrl: string): Promise<NewMail> {
  const viewer = { id: due.userId, role: due.role, companyId: due.companyId }
  const since = new Date(now.getTime() - 7 * 24 * 60 * 60_000).toISOString()
  const rows = rowsOf(
    await tx.execute(sql`
    select a.kind, a.level, a.dispatch_id, a.course_title, a.company_name, a.registration_count, a.registration_cap, a.created_at
    from alert a where ${visibleTo(viewer)} and a.created_at >= ${since}::timestamptz
    order by a.id desc limit 200`),
  )
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
async function reportTable(tx: Tx, due: Due): Promise<{ title: string; table: ReportTable; summary: string[] }> {
  if (ownCompanyOnly(due.role)) {
    const rows = rowsOf(
      await tx.execute(sql`
      select d.course_title, d.enabled, d.registration_count, d.registration_cap,
        coalesce(s.completed, 0) as completed, coalesce(s.incomplete, 0) as incomplete,
        coalesce(s.not_attempted, 0) as not_attempted, coalesce(s.learners, 0) as learners
      from dispatch d left join dispatch_stat s on s.dispatch_id = d.id
      where d.removed_at is null and d.destination_id = ${due.companyId ?? ''}
      order by lower(d.course_title), d.id limit ${MAX_REPORT_ROWS}`),
    )
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
  const managed = can(due.role, 'company.readManagedOnly')
    ? sql`co.account_manager_id = ${due.userId}::uuid`
    : sql`true`
  const rows = rowsOf(
    await tx.execute(sql`
    select coalesce(co.display_name, co.name, d.destination_name) as company, d.course_title, d.enabled,
      d.registration_count, d.registration_cap, d.expiration_date
    from dispatch d join company co on co.id = d.destination_id
    where d.removed_at is null and ${managed}
    order by lower(coalesce(co.display_name, co.name)), lower(d.course_title), d.id limit ${MAX_REPORT_ROWS}`),
  )
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
  publicUrl: string
  attachments: ReportAttachmentBuilder
}

/** One pass: queues every due digest and report (each in its own transaction); returns how many. */
export async function queueScheduledMails(
  { db, publicUrl, attachments }: ScheduledMailsOptions,
  now: Date,
): Promise<number> {
  let queued = 0
  for (const due of await dueMails(db, now)) {
    queued += await db.transaction(async (tx) => {
      const claimed = rowsOf(
        await tx.execute(sql`
        insert into scheduled_mail (user_id, kind, period) values (${due.userId}::uuid, ${due.kind}, ${due.period})
        on conflict do nothing returning user_id`),
      )
      if (claimed.length === 0) return 0
      if (due.kind === 'digest') return outboxRepository.enqueue(tx, [await digestMail(tx, due, now, publicUrl)])
      const { title, table, summary } = await reportTable(tx, due)
      const file = await attachments.build(table)
      const mail = renderReportMail(title, summary, file.filename, publicUrl)
      return outboxRepository.enqueue(tx, [
        {
          idempotencyKey: `report:${due.userId}:${due.period}`,
          kind: 'report',
          userId: due.userId,
          to: due.email,
          ...mail,
          attachments: [file],
        },
      ])
    })
  }
  return queued
}
