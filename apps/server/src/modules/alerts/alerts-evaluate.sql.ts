import { sql, type SQL } from 'drizzle-orm'
import type { Tx } from '../../db/client'
import type { RaisedAlert } from '../mail/mail-render'
import { rowsOf } from '../../db/statement'

/**
 * The alert evaluation, in SQL over the mirror (set-based, never per row in
 * JavaScript). Runs in one transaction under a transaction-level advisory lock, so evaluations of
 * several server processes (after their sync runs and postback batches) take turns; the unique
 * key of alert_state is the second guard that a crossing raises its alert once.
 */

/** Any fixed number: evaluations take turns across all server processes. */
export const ALERT_EVALUATION_LOCK = 7_210_017

/** An alert the evaluation raised: the alert mail's input (mail-render), defined with it. */
export type { RaisedAlert }

type Row = Record<string, unknown>

/** Restricts an evaluation to some dispatches (a postback batch); null means all. */
const scope = (column: SQL, ids: readonly string[] | null) =>
  ids === null ? sql`true` : sql`${column} in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))`

/** Each live dispatch with its effective thresholds: the company's override, else the global row. */
const effective = (ids: readonly string[] | null) => sql`
  select d.id, d.registration_count, d.registration_cap, d.expiration_date,
    coalesce(c.usage_thresholds, g.usage_thresholds) as usage_thresholds,
    coalesce(c.expiry_days, g.expiry_days) as expiry_days
  from dispatch d
  cross join alert_settings g
  left join company_alert_settings c on c.company_id = d.destination_id
  where d.removed_at is null and ${scope(sql`d.id`, ids)}`

/**
 * The crossings that hold now: usage at or over a threshold percent of the cap (capped
 * dispatches: registration_count * 100 >= threshold * cap, the dashboard's figure, unrounded),
 * and expiry within a number of days (UTC calendar days; 0 is the day itself; a dispatch whose
 * expiry date has passed holds none).
 */
const crossings = (ids: readonly string[] | null, now: Date) => sql`
  with e as (${effective(ids)})
  select e.id as dispatch_id, 'usage' as kind, t.level
  from e cross join lateral unnest(e.usage_thresholds) as t(level)
  where e.registration_cap > 0 and e.registration_count::bigint * 100 >= t.level::bigint * e.registration_cap
  union all
  select e.id, 'expiry', t.level
  from e cross join lateral unnest(e.expiry_days) as t(level)
  where e.expiration_date is not null
    and ((e.expiration_date at time zone 'UTC')::date - (${now.toISOString()}::timestamptz at time zone 'UTC')::date)
      between 0 and t.level`

/** Where an insert of alerts takes its rows from: a CTE's alias and its columns (fixed SQL text, never input). */
interface AlertSource {
  from: string
  kind: string
  level: string
  dispatchId: string
  order: string
}

/**
 * Writes the alerts of `source` with the figures they are raised on (kept: the dispatch changes
 * later), the company's shown name and the course's shown title; answers the rows written.
 */
const insertAlerts = (source: AlertSource, now: Date) => sql`
    insert into alert (kind, level, dispatch_id, company_id, company_name, course_title,
      registration_count, registration_cap, expiration_date, created_at)
    select ${sql.raw(source.kind)}, ${sql.raw(source.level)}, d.id, d.destination_id,
      coalesce(co.display_name, co.name, d.destination_name), coalesce(cr.title_override, d.course_title),
      d.registration_count, d.registration_cap, d.expiration_date, ${now.toISOString()}::timestamptz
    from ${sql.raw(source.from)}
    join dispatch d on d.id = ${sql.raw(source.dispatchId)}
    left join company co on co.id = d.destination_id
    left join course cr on cr.id = d.course_id
    order by ${sql.raw(source.order)}
    returning id::text, kind, level, dispatch_id, company_id, company_name, course_title,
      registration_count, registration_cap, expiration_date`

/** Step 2's alerts: the most severe new crossing per dispatch and kind. */
const chosenCrossings: AlertSource = {
  from: 'chosen ch',
  kind: 'ch.kind',
  level: 'ch.level',
  dispatchId: 'ch.dispatch_id',
  order: 'd.id, ch.kind',
}
/** Step 3's alerts: a dispatch disabled or removed upstream (level 0). */
const raisedChanges: AlertSource = { from: 'raised r', kind: 'r.kind', level: '0', dispatchId: 'r.id', order: 'd.id' }

export async function evaluateAlerts(
  tx: Tx,
  { now, dispatchIds }: { now: Date; dispatchIds: readonly string[] | null },
): Promise<RaisedAlert[]> {
  await tx.execute(sql`select pg_advisory_xact_lock(${ALERT_EVALUATION_LOCK})`)
  if (dispatchIds !== null && dispatchIds.length === 0) return []

  // 1. Crossings that no longer hold re-arm (usage fell back, a license reset, a new expiry date,
  //    a changed threshold list, a removed dispatch).
  await tx.execute(sql`
    delete from alert_state s
    where ${scope(sql`s.dispatch_id`, dispatchIds)}
      and not exists (
        select 1 from (${crossings(dispatchIds, now)}) c
        where c.dispatch_id = s.dispatch_id and c.kind = s.kind and c.level = s.level)`)

  // 2. New crossings: their state rows go in once; per dispatch and kind, the one alert is the
  //    most severe level crossed (a dispatch found at 95 % gets the 90 % alert, not two).
  const threshold = rowsOf(
    await tx.execute(sql`
    with fresh as (
      insert into alert_state (dispatch_id, kind, level, raised_at)
      select dispatch_id, kind, level, ${now.toISOString()}::timestamptz from (${crossings(dispatchIds, now)}) c
      order by 1, 2, 3
      on conflict do nothing
      returning dispatch_id, kind, level
    ), chosen as (
      select distinct on (dispatch_id, kind) dispatch_id, kind, level from fresh
      order by dispatch_id, kind, case when kind = 'usage' then -level else level end
    )
    ${insertAlerts(chosenCrossings, now)}`),
  )

  // 3. Disabled or removed upstream: a change from what the last evaluation saw. A dispatch seen
  //    for the first time is recorded without an alert (its earlier state is unknown).
  const changes = rowsOf(
    await tx.execute(sql`
    with current_flags as (
      select d.id, d.enabled, d.removed_at is not null as removed from dispatch d
      where ${scope(sql`d.id`, dispatchIds)}
    ), changed as (
      select c.id, c.enabled, c.removed, w.enabled as was_enabled, w.removed as was_removed
      from current_flags c join alert_watch w on w.dispatch_id = c.id
      where (w.enabled, w.removed) is distinct from (c.enabled, c.removed)
    ), updated as (
      update alert_watch w set enabled = ch.enabled, removed = ch.removed
      from changed ch where w.dispatch_id = ch.id
      returning w.dispatch_id
    ), added as (
      -- (data-modifying CTEs always run; nothing reads this one)
      insert into alert_watch (dispatch_id, enabled, removed)
      select c.id, c.enabled, c.removed from current_flags c
      where not exists (select 1 from alert_watch w where w.dispatch_id = c.id)
      order by 1
      on conflict do nothing
      returning dispatch_id
    ), raised as (
      select ch.id, case when ch.removed then 'removed' else 'disabled' end as kind
      from changed ch join updated u on u.dispatch_id = ch.id
      where (ch.removed and not ch.was_removed) or (not ch.removed and ch.was_enabled and not ch.enabled)
    )
    ${insertAlerts(raisedChanges, now)}`),
  )

  return [...threshold, ...changes].map(toRaised).sort((a, b) => a.id - b.id)
}

function toRaised(r: Row): RaisedAlert {
  const expiration = r.expiration_date
  return {
    id: Number(r.id),
    kind: r.kind as RaisedAlert['kind'],
    level: Number(r.level),
    dispatchId: String(r.dispatch_id),
    companyId: String(r.company_id),
    companyName: String(r.company_name),
    courseTitle: String(r.course_title),
    registrationCount: Number(r.registration_count),
    registrationCap: Number(r.registration_cap),
    expirationDate: expiration == null ? null : new Date(expiration as string | Date),
  }
}
