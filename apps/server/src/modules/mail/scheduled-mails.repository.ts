import { sql } from 'drizzle-orm'
import type { Db, DbOrTx } from '../../db/client'
import { visibleTo } from '../../db/alert-visibility'
import { rowsOf } from '../../db/statement'

/** Due mails handled per pass of the scheduled mails (scheduled-mails.ts). */
const PER_PASS = 50
/** Rows at most in a report's attachment. */
const MAX_REPORT_ROWS = 50_000

/** Who is due now: local time past the period's start plus the chosen hour, and not yet sent (raw rows). */
async function dueRows(db: DbOrTx, now: Date) {
  const at = now.toISOString()
  return rowsOf(
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
}

async function recentAlerts(tx: DbOrTx, viewer: Parameters<typeof visibleTo>[0], since: string) {
  return rowsOf(
    await tx.execute(sql`
    select a.kind, a.level, a.dispatch_id, a.course_title, a.company_name, a.registration_count, a.registration_cap, a.created_at
    from alert a where ${visibleTo(viewer)} and a.created_at >= ${since}::timestamptz
    order by a.id desc limit 200`),
  )
}

async function companySummary(tx: DbOrTx, companyId: string) {
  return rowsOf(
    await tx.execute(sql`
      select d.course_title, d.enabled, d.registration_count, d.registration_cap,
        coalesce(s.completed, 0) as completed, coalesce(s.incomplete, 0) as incomplete,
        coalesce(s.not_attempted, 0) as not_attempted, coalesce(s.learners, 0) as learners
      from dispatch d left join dispatch_stat s on s.dispatch_id = d.id
      where d.removed_at is null and d.destination_id = ${companyId}
      order by lower(d.course_title), d.id limit ${MAX_REPORT_ROWS}`),
  )
}

async function licenseUsage(tx: DbOrTx, managerId: string | null) {
  const managed = managerId !== null ? sql`co.account_manager_id = ${managerId}::uuid` : sql`true`
  return rowsOf(
    await tx.execute(sql`
    select coalesce(co.display_name, co.name, d.destination_name) as company, d.course_title, d.enabled,
      d.registration_count, d.registration_cap, d.expiration_date
    from dispatch d join company co on co.id = d.destination_id
    where d.removed_at is null and ${managed}
    order by lower(coalesce(co.display_name, co.name)), lower(d.course_title), d.id limit ${MAX_REPORT_ROWS}`),
  )
}

async function claimPeriod(tx: DbOrTx, claim: { userId: string; kind: string; period: string }) {
  const claimed = rowsOf(
    await tx.execute(sql`
        insert into scheduled_mail (user_id, kind, period) values (${claim.userId}::uuid, ${claim.kind}, ${claim.period})
        on conflict do nothing returning user_id`),
  )
  return claimed.length > 0
}

/**
 * The scheduled mails' SQL: who is due, the (user, kind, period) claim that makes a mail go out
 * once across processes, and what a digest or a report is made of.
 */
export function createScheduledMailsRepository(db: Db) {
  return {
    dueRows: (now: Date, tx: DbOrTx = db) => dueRows(tx, now),
    /** False when another pass (here or in another process) already took this period. */
    claimPeriod: (claim: { userId: string; kind: string; period: string }, tx: DbOrTx = db) => claimPeriod(tx, claim),
    /** The viewer's alerts raised since `since` (ISO), newest first, 200 at most. */
    recentAlerts: (viewer: Parameters<typeof visibleTo>[0], since: string, tx: DbOrTx = db) =>
      recentAlerts(tx, viewer, since),
    /** A client company's live dispatches with their completion figures. */
    companySummary: (companyId: string, tx: DbOrTx = db) => companySummary(tx, companyId),
    /** Live dispatches with their company, of the companies this manager manages (null: all). */
    licenseUsage: (managerId: string | null, tx: DbOrTx = db) => licenseUsage(tx, managerId),
  }
}
export type ScheduledMailsRepository = ReturnType<typeof createScheduledMailsRepository>
