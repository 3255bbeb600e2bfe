/**
 * The tables the registration and activity log triggers keep, built in one set-based statement
 * each after a bulk load that bypassed those triggers (`session_replication_role = replica`).
 * Each statement sums what the trigger functions (migrations 0008, 0015, 0016, 0021, 0041 and
 * 0014) add up page by page, so the result is the same rows a sync or a live server writes:
 * bench/seed-sql-check.ts compares them with a build through the sync's own writers.
 *
 * Only an insert-only load of live rows is covered (no removed_at, no updates), which is what
 * the seed makes. Webhook events are not made: the seed has no webhook subscription, and the
 * trigger emits nothing without one.
 */
import type { SqlRunner } from './sql-runner'

/** One statement per aggregate table of the registrations, in the order they depend on each other. */
export const REGISTRATION_AGGREGATES: readonly { table: string; sql: string }[] = [
  {
    table: 'dispatch_learner',
    sql: `insert into dispatch_learner as l (dispatch_id, learner_hash, registrations, completed, incomplete, not_attempted)
      select dispatch_id, learner_hash, count(*),
        count(*) filter (where completion_status = 'completed'),
        count(*) filter (where completion_status = 'incomplete'),
        count(*) filter (where completion_status = 'not attempted')
      from registration where removed_at is null
      group by dispatch_id, learner_hash
      -- in key order: the primary key is then filled from left to right, not at random
      order by dispatch_id, learner_hash
      on conflict (dispatch_id, learner_hash) do update set
        registrations = l.registrations + excluded.registrations, completed = l.completed + excluded.completed,
        incomplete = l.incomplete + excluded.incomplete, not_attempted = l.not_attempted + excluded.not_attempted`,
  },
  {
    // From the learners just built: a learner counts in a status while it has a registration in it.
    table: 'dispatch_stat',
    sql: `insert into dispatch_stat as s (dispatch_id, version, registrations, completed, incomplete, not_attempted,
        learners, learners_completed, learners_incomplete, learners_not_attempted)
      select dispatch_id, txid_current(), sum(registrations), sum(completed), sum(incomplete), sum(not_attempted),
        count(*) filter (where registrations > 0), count(*) filter (where completed > 0),
        count(*) filter (where incomplete > 0), count(*) filter (where not_attempted > 0)
      from dispatch_learner group by dispatch_id
      on conflict (dispatch_id) do update set version = greatest(s.version + 1, txid_current()),
        registrations = s.registrations + excluded.registrations, completed = s.completed + excluded.completed,
        incomplete = s.incomplete + excluded.incomplete, not_attempted = s.not_attempted + excluded.not_attempted,
        learners = s.learners + excluded.learners, learners_completed = s.learners_completed + excluded.learners_completed,
        learners_incomplete = s.learners_incomplete + excluded.learners_incomplete,
        learners_not_attempted = s.learners_not_attempted + excluded.learners_not_attempted`,
  },
  {
    table: 'dispatch_summary',
    sql: `insert into dispatch_summary as s (company_id, enabled, active_registrations)
      select d.destination_id, d.enabled, sum(t.registrations)
      from dispatch_stat as t join dispatch as d on d.id = t.dispatch_id
      where d.removed_at is null group by 1, 2 having sum(t.registrations) <> 0
      on conflict (company_id, enabled) do update set active_registrations = s.active_registrations + excluded.active_registrations`,
  },
  {
    table: 'dispatch_course_summary',
    sql: `insert into dispatch_course_summary as s (course_id, enabled, active_registrations)
      select d.course_id, d.enabled, sum(t.registrations)
      from dispatch_stat as t join dispatch as d on d.id = t.dispatch_id
      where d.removed_at is null group by 1, 2 having sum(t.registrations) <> 0
      on conflict (course_id, enabled) do update set active_registrations = s.active_registrations + excluded.active_registrations`,
  },
  {
    table: 'dispatch_month',
    sql: `insert into dispatch_month as m (dispatch_id, month, registrations)
      select dispatch_id, date_trunc('month', created_date at time zone 'UTC')::date, count(*)::int
      from registration where removed_at is null and created_date is not null group by 1, 2
      on conflict (dispatch_id, month) do update set registrations = m.registrations + excluded.registrations`,
  },
  {
    table: 'dispatch_week',
    sql: `insert into dispatch_week as w (dispatch_id, week, completions)
      select dispatch_id, date_trunc('week', completed_date at time zone 'UTC')::date, count(*)::int
      from registration where removed_at is null and completed_date is not null group by 1, 2
      on conflict (dispatch_id, week) do update set completions = w.completions + excluded.completions`,
  },
  {
    table: 'dispatch_success',
    sql: `insert into dispatch_success as s (dispatch_id, passed, failed)
      select dispatch_id, count(*) filter (where success_status = 'passed'), count(*) filter (where success_status = 'failed')
      from registration where removed_at is null and success_status in ('passed', 'failed') group by 1
      on conflict (dispatch_id) do update set passed = s.passed + excluded.passed, failed = s.failed + excluded.failed`,
  },
  {
    table: 'company_month',
    sql: `insert into company_month as c (company_id, enabled, month, version, registrations)
      select d.destination_id, d.enabled, m.month, txid_current(), sum(m.registrations)
      from dispatch_month as m join dispatch as d on d.id = m.dispatch_id
      where d.removed_at is null group by 1, 2, 3 having sum(m.registrations) <> 0
      on conflict (company_id, enabled, month) do update set version = greatest(c.version + 1, txid_current()),
        registrations = c.registrations + excluded.registrations`,
  },
  {
    table: 'dispatch_access_day',
    sql: `insert into dispatch_access_day as a (dispatch_id, completion_status, day, registrations)
      select dispatch_id, completion_status, (last_access_date at time zone 'UTC')::date, count(*)::int
      from registration where removed_at is null and last_access_date is not null group by 1, 2, 3
      on conflict (dispatch_id, completion_status, day) do update set registrations = a.registrations + excluded.registrations`,
  },
  {
    // As a full listing's pages leave it (company_learner_refresh with learners deferred): every
    // company with a live registration in a live dispatch is marked for its build.
    table: 'company_learner_stat',
    sql: `insert into company_learner_stat as s (company_id, version, building)
      select distinct d.destination_id, txid_current(), true
      from dispatch as d where d.removed_at is null
        and exists (select 1 from dispatch_stat as t where t.dispatch_id = d.id and t.registrations > 0)
      on conflict (company_id) do update set building = true, version = greatest(s.version + 1, txid_current())`,
  },
]

/** activity_log_day (per day and action, and '*' for the day) and activity_log_user_day. */
export const ACTIVITY_LOG_AGGREGATES: readonly { table: string; sql: string }[] = [
  {
    table: 'activity_log_day',
    sql: `insert into activity_log_day as a (day, action, rows)
      select (created_at at time zone 'UTC')::date, coalesce(action, '*'), count(*)::int
      from activity_log group by grouping sets (((created_at at time zone 'UTC')::date, action), ((created_at at time zone 'UTC')::date))
      on conflict (day, action) do update set rows = a.rows + excluded.rows`,
  },
  {
    table: 'activity_log_user_day',
    sql: `insert into activity_log_user_day as a (user_id, day, rows)
      select user_id, (created_at at time zone 'UTC')::date, count(*)::int
      from activity_log where user_id is not null group by 1, 2
      on conflict (user_id, day) do update set rows = a.rows + excluded.rows`,
  },
]

/** Runs the statements, one transaction each, reporting each one's time. */
export async function buildAggregates(
  db: SqlRunner,
  statements: readonly { table: string; sql: string }[],
  progress: (line: string) => void,
): Promise<void> {
  for (const { table, sql } of statements) {
    const started = performance.now()
    await db.exec(sql)
    progress(`  ${table} built in one statement (${((performance.now() - started) / 1000).toFixed(1)} s)`)
  }
}
