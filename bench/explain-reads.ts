/**
 * `npx tsx bench/explain-reads.ts [database] [--only report|logs|learners|staff] [--repeat 5] [--plans]`: EXPLAIN (ANALYZE, BUFFERS) of every
 * statement the read paths' harsh requests issue (the server's own services, caches off, captured
 * through a logging Drizzle instance), on one bench database: the completion report of the
 * biggest dispatch under date windows, statuses and searches and its last page, the activity
 * log under a user, an action and a search with a date window, and the learners of the biggest
 * company sorted, first and deep pages. The inputs are drawn from the database itself in the
 * same way at any scale, so two sizes can be compared statement by statement: buffers and plan
 * shape do not depend on the machine's load, execution times do.
 */
import { createDatabase } from '../apps/server/src/db/client'
import type { Viewer } from '../apps/server/src/lib/viewer'
import { benchDatabaseUrl } from './config'
import { explainWork, type StatementPlan } from './explain'
import { withClient } from './pg-admin'
import { BENCH_LOG_ACTION } from './seed-logs'
import { findFixtures } from './seed-users'
import { dispatchesServiceOf, learnersServiceOf, logsServiceOf, reportsServiceOf } from './services'
import { postgresTarget } from './sql-baselines'
import { pgRunner } from './sql-runner'

const admin: Viewer & { id: string } = { id: '00000000-0000-0000-0000-000000000000', role: 'admin', companyId: null }
const silent = { error() {} }

/** Shared and local buffers a plan touched, summed over its top-level "Buffers:" line. */
function buffers(plan: string): number {
  const line = plan.split('\n').find((l) => /^\s*Buffers:/.test(l)) ?? ''
  return [...line.matchAll(/(hit|read|dirtied|written)=(\d+)/g)]
    .filter((m) => m[1] === 'hit' || m[1] === 'read')
    .reduce((sum, m) => sum + Number(m[2]), 0)
}

/** The plan's main nodes, one line: scans and aggregates with their actual rows. */
function shape(plan: string): string {
  return plan
    .split('\n')
    .filter((l) => /Scan|Aggregate|Sort|Limit|Nested Loop|Hash Join|Append/.test(l))
    .map((l) => {
      const node = l
        .trim()
        .replace(/^->\s*/, '')
        .split('  (')[0]!
      const rows = /actual time=[\d.]+\.\.[\d.]+ rows=(\d+) loops=(\d+)/.exec(l)
      return rows ? `${node} [${rows[1]}${rows[2] !== '1' ? `×${rows[2]}` : ''}]` : node
    })
    .slice(0, 6)
    .join(' > ')
}

async function main() {
  const name = process.argv[2] && !process.argv[2].startsWith('--') ? process.argv[2] : 'portal_bench'
  const full = process.argv.includes('--plans')
  const flag = (name: string) => {
    const at = process.argv.indexOf(`--${name}`)
    return at >= 0 ? process.argv[at + 1] : undefined
  }
  // Each request's plans are taken this many times and the median execution time printed: one
  // EXPLAIN ANALYZE on a shared machine is noise, its buffers and plan shape are not.
  const repeat = Math.max(1, Number(flag('repeat') ?? 5))
  const only = flag('only')
  const url = new URL(benchDatabaseUrl())
  url.pathname = `/${name}`
  // Migrates first: the plans are those of this code's schema.
  const database = await createDatabase({ databaseUrl: url.toString(), poolSize: 2 })
  await database.close()
  const inputs = await withClient(url.toString(), async (client) => {
    const runner = pgRunner(client)
    const fixtures = await findFixtures(runner)
    const { rows: range } = await client.query<{ start: string; end: string; mid: string }>(
      `select to_char(percentile_disc(0.5) within group (order by last_access_date) at time zone 'UTC', 'YYYY-MM-DD') as start,
              to_char(percentile_disc(0.75) within group (order by last_access_date) at time zone 'UTC', 'YYYY-MM-DD') as mid,
              to_char(max(last_access_date) at time zone 'UTC', 'YYYY-MM-DD') as end
       from registration where dispatch_id = $1 and completion_status = 'completed'`,
      [fixtures.bigDispatchId],
    )
    const { rows: logUser } = await client.query<{ id: string; last: string; day: string }>(
      `select user_id as id, split_part(actor_name, ' ', 2) as last,
              to_char(max(created_at) at time zone 'UTC', 'YYYY-MM-DD') as day
       from activity_log where user_id is not null group by user_id, actor_name order by user_id limit 1`,
    )
    const { rows: listed } = await client.query<{ n: number }>(
      'select count(*)::int as n from dispatch where removed_at is null',
    )
    // No log rows yet (a seed still running): the log requests are drawn around today, for no user.
    const today = new Date().toISOString().slice(0, 10)
    return {
      fixtures,
      dispatchCount: listed[0]!.n,
      range: range[0]!,
      logUser: logUser[0] ?? { id: admin.id, last: 'smith', day: today },
    }
  })
  const { fixtures, dispatchCount, range, logUser } = inputs
  const days = (from: string, n: number) =>
    new Date(Date.parse(`${from}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10)
  const dispatches = (db: Parameters<typeof dispatchesServiceOf>[0]) => dispatchesServiceOf(db, { cache: false })
  const report = (query: Record<string, unknown>) => (db: Parameters<typeof dispatchesServiceOf>[0]) =>
    reportsServiceOf(db, dispatches(db), { cache: false }).dispatchReport(admin, fixtures.bigDispatchId, {
      page: 1,
      pageSize: 100,
      ...query,
    } as never)
  const logs = (query: Record<string, unknown>) => (db: Parameters<typeof dispatchesServiceOf>[0]) =>
    logsServiceOf(db, silent).list({ page: 1, limit: 50, ...query } as never, { actor: null, ip: '127.0.0.1' })
  const learners = (query: Record<string, unknown>) => (db: Parameters<typeof dispatchesServiceOf>[0]) =>
    learnersServiceOf(db, silent, { cache: false }).list(admin, {
      page: 1,
      pageSize: 50,
      sort: 'name',
      order: 'asc',
      companyId: fixtures.clientCompanyId,
      ...query,
    } as never)
  const staffList = (query: Record<string, unknown>) => (db: Parameters<typeof dispatchesServiceOf>[0]) =>
    dispatches(db).list(admin, {
      page: 1,
      pageSize: 50,
      status: 'all',
      sort: 'client',
      order: 'asc',
      ...query,
    } as never)
  // Deep staff pages at the same fraction of the list at any size (a quarter in: the deepest
  // walk from the nearer end is half of that).
  const quarter = Math.max(1, Math.floor(dispatchCount / 50 / 4))
  const window = { startDate: range.start, endDate: range.end }
  const requests: [string, (db: Parameters<typeof dispatchesServiceOf>[0]) => Promise<unknown>][] = [
    ['report: completed, last-access window (half the completed), p1', report({ status: 'completed', ...window })],
    ['report: window only, p1', report(window)],
    [
      'report: incomplete, window to the 75th percentile, p3',
      report({ status: 'incomplete', startDate: range.start, endDate: range.mid, page: 3 }),
    ],
    ['report: search "smith" + window', report({ search: 'smith', ...window })],
    ['report: completed + window, page 200', report({ status: 'completed', ...window, page: 200 })],
    ['report: no filter, p1', report({})],
    ['report: incomplete, p3', report({ status: 'incomplete', page: 3 })],
    ['report: window, page 2 of 25', report({ ...window, page: 2, pageSize: 25 })],
    ['report: no filter, page 300 (middle)', report({ page: 300 })],
    ['report: search "sa" (two letters), p1', report({ search: 'sa' })],
    ['report: search "smith", p2', report({ search: 'smith', page: 2 })],
    ['report: repeat learners + window', report({ repeatLearners: true, ...window })],
    ['logs: user + 30 days', logs({ userId: logUser.id, startDate: days(logUser.day, 29), endDate: logUser.day })],
    [
      'logs: user + 90 days + search (their last name)',
      logs({ userId: logUser.id, startDate: days(logUser.day, 89), endDate: logUser.day, searchTerm: logUser.last }),
    ],
    [
      'logs: action + 30 days, p1',
      logs({ action: BENCH_LOG_ACTION, startDate: days(logUser.day, 29), endDate: logUser.day }),
    ],
    [
      'logs: action + 30 days, p40',
      logs({ action: BENCH_LOG_ACTION, startDate: days(logUser.day, 29), endDate: logUser.day, page: 40 }),
    ],
    [
      'logs: search "gdpr" + 7 days',
      logs({ searchTerm: 'gdpr', startDate: days(logUser.day, 6), endDate: logUser.day }),
    ],
    ['staff list: client asc, p1', staffList({})],
    [`staff list: client asc, a quarter in (p${quarter})`, staffList({ page: quarter })],
    [
      `staff list: course desc, enabled, a quarter in`,
      staffList({ sort: 'course', order: 'desc', status: 'enabled', page: quarter }),
    ],
    [
      `staff list: registrations desc, a quarter in`,
      staffList({ sort: 'registrations', order: 'desc', page: quarter }),
    ],
    ['staff list: status asc, search "pine", p1', staffList({ sort: 'status', search: 'pine' })],
    ['learners: name asc, p1', learners({})],
    ['learners: last access desc, p200', learners({ sort: 'lastAccess', order: 'desc', page: 200 })],
    ['learners: search "lars", name desc, p1', learners({ search: 'lars', order: 'desc' })],
    ['learners: search "ma" (two letters), p1', learners({ search: 'ma' })],
    [
      'learners: search "leila", incomplete, last access asc, p2',
      learners({ search: 'leila', status: 'incomplete', sort: 'lastAccess', page: 2 }),
    ],
    [
      'learners: completed desc, status completed, p1',
      learners({ sort: 'completed', order: 'desc', status: 'completed' }),
    ],
  ]
  console.log(
    `# ${name}: big dispatch ${fixtures.bigDispatchRegistrations.toLocaleString('en-US')} registrations, window ${range.start}..${range.end}`,
  )
  const target = postgresTarget(url.toString())
  try {
    for (const [label, work] of requests.filter(([name]) => !only || name.startsWith(only))) {
      // Once to warm the cache, as a running server is: the plans then read what it reads.
      await explainWork(target, work)
      let plans: StatementPlan[] = []
      const totals: number[] = []
      for (let i = 0; i < repeat; i += 1) {
        plans = await explainWork(target, work)
        totals.push(plans.reduce((s, p) => s + (p.executionMs ?? 0), 0))
      }
      const median = totals.sort((a, b) => a - b)[Math.floor(totals.length / 2)]!
      console.log(
        `\n## ${label}: ${plans.length} statement(s), median ${median.toFixed(2)} ms of ${repeat}, ${plans.reduce((s, p) => s + buffers(p.plan), 0)} buffers`,
      )
      for (const p of plans) {
        console.log(`- ${p.executionMs?.toFixed(2)} ms, ${buffers(p.plan)} buffers: ${shape(p.plan)}`)
        if (full) console.log(p.plan.replace(/^/gm, '    '))
      }
    }
  } finally {
    await target.close()
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error))
    process.exit(1)
  },
)
