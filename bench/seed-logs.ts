/**
 * Part 2 of the seed, directly in SQL because only reads use it: activity_log rows made with
 * generate_series, in time order over the past year (as a live system writes them, so the heap
 * order follows created_at), with a skewed mix of actions, 400 recurring users with their own
 * IPs, about 3 % system rows, and details shaped per action. The indexes are dropped during the
 * load and rebuilt from their own definitions (faster than maintaining them row by row).
 */
import { ACTIVITY_LOG_AGGREGATES, buildAggregates } from './seed-aggregates'
import type { SqlRunner } from './sql-runner'

/** Most frequent first: the pick below favours the start of the list. */
export const BENCH_LOG_ACTIONS = [
  'NAVIGATION_LOGGED',
  'PAGE_VIEWED',
  'DASHBOARD_VIEWED',
  'DISPATCH_DETAILS_LOADED',
  'LOGIN_SUCCESS',
  'COURSE_OVERVIEW_VIEWED',
  'DISPATCH_PAGINATION_CHANGED',
  'LOGOUT',
  'COURSE_DETAILS_LOADED',
  'DISPATCH_SEARCH_PERFORMED',
  'COURSE_VIEWED',
  'COURSE_SEARCH_PERFORMED',
  'DISPATCH_STATUS_FILTER_CHANGED',
  'LOGIN_FAILED',
  'SETTINGS_VIEWED',
  'DISPATCH_ITEMS_PER_PAGE_CHANGED',
  'HELP_BUTTON_CLICKED',
  'LOGS_PAGE_VIEWED',
  'COURSE_REQUEST_SUBMITTED',
  'DISPATCH_UPDATED',
  'COURSES_SYNCED',
  'COMPANIES_SYNCED',
  'COURSE_REQUEST_STATUS_UPDATED',
  'ADMIN_USER_UPDATED',
  'LOGS_EXPORTED',
  'ADMIN_USER_CREATED',
  'COURSE_DETAIL_EDIT_SAVED',
  'COURSE_VISIBILITY_CHANGED',
  'COMPANY_UPDATED',
  'ADMIN_USER_SUSPENDED',
  'ADMIN_USER_ACTIVATED',
  'ADMIN_USER_DELETED',
  'TOKEN_REUSE_DETECTED',
] as const

/** The filter the bench's logs rows use: common enough to fill many pages in one month. */
export const BENCH_LOG_ACTION = 'DISPATCH_DETAILS_LOADED'

const FIRST = ['Ana', 'Ben', 'Chloe', 'Dev', 'Emma', 'Farid', 'Grace', 'Hugo', 'Iris', 'Jonas']
const LAST = ['Smith', 'Garcia', 'Müller', 'Okafor', 'Rossi', 'Tanaka', 'Nowak', 'Silva', 'Dubois', "O'Brien"]
const sqlArray = (items: readonly string[]) => `array[${items.map((s) => `'${s.replace(/'/g, "''")}'`).join(',')}]`

function insertChunk(from: number, to: number, total: number): string {
  // r1 picks the user, r2 the action (squared: skewed to the front), r3 the system rows and IP,
  // r4 the jitter. Volatile random() in the inner select list is evaluated once per row.
  return `
insert into activity_log (created_at, user_id, actor_name, actor_email, action, details, ip_address)
select
  now() - interval '365 days' + (g::double precision / ${total}) * interval '365 days' - r4 * interval '30 seconds',
  case when system then null else md5('bench-user-' || u)::uuid end,
  case when system then null else first || ' ' || last end,
  case when system then null else lower(first) || '.' || u || '@client' || (u % 40) || '.example' end,
  action,
  case
    when action = 'NAVIGATION_LOGGED' then jsonb_build_object('pathname', (array['/dashboard','/courses','/dispatches/disp-' || (g % 50000),'/settings','/course-requests'])[1 + (g % 5)])
    when action = 'PAGE_VIEWED' then jsonb_build_object('page', (array['Dashboard','Courses','Dispatch details','Settings'])[1 + (g % 4)])
    when action = 'DISPATCH_DETAILS_LOADED' then jsonb_build_object('dispatchId', 'disp-' || (g % 50000), 'page', 1 + (g % 3))
    when action = 'DISPATCH_SEARCH_PERFORMED' then jsonb_build_object('searchTerm', (array['safety','excel','gdpr','leadership','acme'])[1 + (g % 5)])
    when action in ('LOGIN_SUCCESS', 'LOGOUT') then jsonb_build_object('message', case when action = 'LOGOUT' then 'User signed out' else 'User signed in' end)
    when action = 'LOGIN_FAILED' then jsonb_build_object('email', lower(first) || '@example.com', 'reason', 'wrong password')
    when action like 'COURSE%' then jsonb_build_object('courseId', 'course-' || (g % 300), 'title', 'Course ' || (g % 300))
    when action like 'ADMIN_USER%' then jsonb_build_object('targetUserId', md5('bench-user-' || (g % 400))::uuid, 'changes', jsonb_build_array('role', 'status'))
    else jsonb_build_object('message', initcap(replace(lower(action), '_', ' ')))
  end,
  case when system then null else '10.' || (u % 200) || '.' || ((u * 7) % 250) || '.' || (1 + floor(r3 * 1000)::int % 3) end
from (
  select g, u, action, r3, r4, r3 < 0.03 as system,
    (${sqlArray(FIRST)})[1 + u % ${FIRST.length}] as first,
    (${sqlArray(LAST)})[1 + (u / ${FIRST.length}) % ${LAST.length}] as last
  from (
    select g,
      1 + floor(random() * 400)::int as u,
      (${sqlArray(BENCH_LOG_ACTIONS)})[1 + floor(power(random(), 2.5) * ${BENCH_LOG_ACTIONS.length})::int] as action,
      random() as r3,
      random() as r4
    -- a function scan returns g in order: rows go in in time order without a sort
    from generate_series(${from}, ${to}) as g
  ) as picked
) as rows`
}

export async function seedActivityLogs(
  db: SqlRunner,
  total: number,
  progress: (line: string) => void,
  options: {
    maintenanceWorkMem?: string
    /**
     * Load with the day-count triggers off (`session_replication_role = replica`) and build
     * activity_log_day and activity_log_user_day afterwards in one statement each: on
     * PostgreSQL only (the bench's SQL seed), the same counts in far less time.
     */
    bulkDayCounts?: boolean
  } = {},
): Promise<{ rows: number; loadMs: number; indexMs: number }> {
  const { rows: indexes } = await db.query<{ indexname: string; indexdef: string }>(
    `select indexname, indexdef from pg_indexes
     where schemaname = 'public' and tablename = 'activity_log' and indexname <> 'activity_log_pkey'`,
  )
  for (const index of indexes) await db.exec(`drop index "${index.indexname}"`)
  // The log is partitioned by month (migration 0014): a partition for every month of the year
  // seeded, as a server running for a year would have made them (else all would go to the
  // default partition).
  await db.query(`select activity_log_ensure_months((current_date - 366)::date, current_date)`)
  // Repeatable data set: the same seed gives the same rows on PostgreSQL and PGlite.
  await db.query('select setseed(0.42)')
  const started = performance.now()
  if (options.bulkDayCounts) await db.exec('set session_replication_role = replica')
  const chunk = 250_000
  for (let from = 1; from <= total; from += chunk) {
    const to = Math.min(total, from + chunk - 1)
    await db.exec(insertChunk(from, to, total))
    progress(`  activity_log: ${to.toLocaleString('en-US')} / ${total.toLocaleString('en-US')} rows`)
  }
  if (options.bulkDayCounts) {
    await db.exec('set session_replication_role = default')
    await buildAggregates(db, ACTIVITY_LOG_AGGREGATES, progress)
  }
  const loadMs = performance.now() - started
  const indexStarted = performance.now()
  if (options.maintenanceWorkMem) await db.exec(`set maintenance_work_mem = '${options.maintenanceWorkMem}'`)
  for (const index of indexes) {
    // pg_indexes gives a partitioned table's index as `ON ONLY activity_log`, which would build
    // an invalid parent index and none on the partitions: built on the whole table instead.
    await db.exec(index.indexdef.replace(/ ON ONLY /i, ' ON '))
    progress(`  activity_log: index ${index.indexname} rebuilt`)
  }
  const { rows: invalid } = await db.query<{ name: string }>(
    `select c.relname as name from pg_index i join pg_class c on c.oid = i.indexrelid
     join pg_class t on t.oid = i.indrelid
     where not i.indisvalid and (t.relname = 'activity_log' or t.relname like 'activity_log_p%')`,
  )
  if (invalid.length > 0) throw new Error(`activity_log indexes left invalid: ${invalid.map((r) => r.name).join(', ')}`)
  return { rows: total, loadMs, indexMs: performance.now() - indexStarted }
}

/** The first UTC day of the newest `rows` log rows: the export filter that yields about that many. */
export async function exportStartDay(db: SqlRunner, rows: number): Promise<string> {
  const { rows: found } = await db.query<{ day: string }>(
    `select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day
     from activity_log order by created_at desc, id desc offset $1 limit 1`,
    [Math.max(0, rows - 1)],
  )
  if (!found[0]) throw new Error(`fewer than ${rows} activity_log rows`)
  return found[0].day
}
