import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { appParts } from './app'
import { PLANNER_STATISTICS_JOB } from './background'
import { buildTestApp, runDueJobs, type TestContext } from './test/helpers'

let t: TestContext
let admin: { 'x-auth-token': string }

beforeAll(async () => {
  t = await buildTestApp()
  admin = (await t.loginAs('admin')).headers
  // The job sent at start has run: what follows is written after it.
  await runDueJobs(t.app)
})
afterAll(async () => t?.close())

type Row = Record<string, unknown>
const rows = async (query: ReturnType<typeof sql>) =>
  ((await t.database.db.execute(query)) as unknown as { rows: Row[] }).rows

/** The planner's estimate of the log rows of one action in the last day. */
const estimate = async (action: string) => {
  const [row] = await rows(sql`
    explain (format json) select id from activity_log
    where action = ${action} and created_at > now() - interval '1 day'`)
  const plan = row!['QUERY PLAN']
  const cell = (typeof plan === 'string' ? JSON.parse(plan) : plan) as [{ Plan: { 'Plan Rows': number } }]
  return cell[0].Plan['Plan Rows']
}

describe('planner statistics upkeep (the planner-statistics job)', () => {
  it('is scheduled every 10 minutes, and once run, the log is planned for the rows it holds and its day counts read index-only', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/jobs', headers: admin })
    expect(res.statusCode, res.body).toBe(200)
    const queue = res.json().queues.find((q: { name: string }) => q.name === 'planner-statistics')
    expect(queue.schedules).toEqual(['*/10 * * * *'])

    // 6,000 log rows in the last hours, written in one go as a restore or bulk load would, a
    // third of them one action. No autovacuum here (PGlite has none; the test server's may lag).
    await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`
        insert into activity_log (action, created_at, actor_name)
        select case when n % 3 = 0 then 'STATS_PROBE_RARE' else 'STATS_PROBE_COMMON' end,
          now() - make_interval(secs => n), 'Probe ' || n
        from generate_series(1, 6000) as n`)
      // Two years of day counts of ten more actions, as the log's triggers keep them.
      await tx.execute(sql`
        insert into activity_log_day (day, action, rows)
        select current_date - 2 - d, 'STATS_PROBE_' || a, 1 + (a + d) % 5
        from generate_series(0, 729) as d, generate_series(1, 10) as a`)
      await tx.execute(sql`select pg_stat_force_next_flush()`)
    })
    // Never analyzed with these rows, the planner takes the log for far smaller than it is.
    expect(await estimate('STATS_PROBE_COMMON')).toBeLessThan(400)

    // As the schedule sends it.
    await appParts(t.app).jobs.send(PLANNER_STATISTICS_JOB, {})
    await runDueJobs(t.app)

    // The day counts the log's pages read index-only are marked all-visible (vacuumed).
    const [day] = await rows(sql`select relpages, relallvisible from pg_class where relname = 'activity_log_day'`)
    expect(Number(day!.relpages)).toBeGreaterThan(0)
    expect(Number(day!.relallvisible)).toBe(Number(day!.relpages))

    const common = await estimate('STATS_PROBE_COMMON')
    expect(common).toBeGreaterThan(3000)
    expect(common).toBeLessThan(5000)
    const after = await t.app.inject({ method: 'GET', url: '/api/admin/jobs', headers: admin })
    const counts = after.json().queues.find((q: { name: string }) => q.name === 'planner-statistics').counts
    expect(counts.completed).toBeGreaterThanOrEqual(2)
    expect(counts.failed).toBe(0)
  })
})
