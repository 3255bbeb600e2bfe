/**
 * `npm run bench`: seeds PostgreSQL through the real sync path and the activity log in SQL,
 * measures the read endpoints of the real server with autocannon next to their SQL, the CSV
 * export and sign-in, repeats the read part on PGlite, and writes bench/results/*.json, the full
 * tables in bench/results/latest.md and their summary in docs/performance.md. Bounded: every
 * load row stops after a fixed time or request count, and the whole run aborts past
 * BENCH_HARD_LIMIT_MINUTES.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { newPglite } from '../apps/server/src/db/client'
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../apps/server/src/modules/demo/demo-accounts'
import { signIn } from './api-session'
import { killChildren, runMain } from './child-process'
import { ADMIN_URL, RESULTS_DIR, benchDatabaseUrl, settings } from './config'
import { recreateBenchDatabase, withClient } from './pg-admin'
import { runReads, type ReadInputs } from './read-phase'
import { measureLoad } from './measure'
import { rowLine, writeJson, writeMarkdown, type BenchReport, type DbRun, type RowResult } from './report'
import { startServer } from './run-server'
import { exportStartDay, seedActivityLogs } from './seed-logs'
import { measureSync } from './seed-sync'
import { findFixtures, seedUsers } from './seed-users'
import { startBenchSimulator, type RunningSimulator } from './simulator'
import { pgliteTarget, postgresTarget } from './sql-baselines'
import { pgRunner } from './sql-runner'
import { checkTargets } from './targets'
import { pgliteBenchData } from './pglite-data'
import { benchSessions, explainSlowest, loadVariedData, runVaried, type VariedSessions } from './varied-phase'

const began = Date.now()
const progress = (line: string) => {
  const s = Math.round((Date.now() - began) / 1000)
  console.log(`[${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}] ${line}`)
}

// Children (simulator, sync worker, server) never outlive the bench, however it ends.
process.on('exit', killChildren)
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    killChildren()
    process.exit(130)
  })
}
setTimeout(() => {
  console.error(`The bench passed its hard limit of ${settings.hardLimitMinutes} minutes: stopping.`)
  killChildren()
  process.exit(2)
}, settings.hardLimitMinutes * 60_000).unref()

async function machine(url: string): Promise<Record<string, string | number>> {
  const version = await withClient(url, (c) => c.query<{ v: string }>('select version() as v'))
  const cpus = os.cpus()
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model.trim() ?? 'unknown CPU',
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    node: process.versions.node,
    postgres: version.rows[0]?.v.split(' on ')[0] ?? 'PostgreSQL',
  }
}

async function postgresPart(sim: RunningSimulator, startedAt: string, info: Record<string, string | number>) {
  const url = benchDatabaseUrl()
  let syncs: BenchReport['sync'] = null
  if (!settings.reuse) {
    progress('full sync through the real sync service (simulator at bench size)...')
    const full = await measureSync('full', url, sim, progress)
    progress(`  full sync: ${(full.durationMs / 1000).toFixed(1)} s, peak RSS ${full.rss.peakMb} MB, ok ${full.ok}`)
    progress('incremental sync with nothing new...')
    const incremental = await measureSync('incremental', url, sim, progress)
    progress(
      `  incremental: ${Math.round(incremental.durationMs)} ms, mirror rows written ${incremental.mirrorRowsWritten}`,
    )
    syncs = { full, incremental }
  }

  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    const { rows: bloat } = await client.query<{ live: string; dead: string; mb: string }>(
      `select n_live_tup as live, n_dead_tup as dead, round(pg_relation_size('dispatch') / 1048576.0, 1) as mb
       from pg_stat_user_tables where relname = 'dispatch'`,
    )
    let logs: Awaited<ReturnType<typeof seedActivityLogs>> | null = null
    if (!settings.reuse) {
      progress(`activity_log: ${settings.logRows.toLocaleString('en-US')} rows with generate_series...`)
      logs = await seedActivityLogs(pgRunner(client), settings.logRows, progress, { maintenanceWorkMem: '512MB' })
    }
    const runner = pgRunner(client)
    const fixtures = await findFixtures(runner)
    await seedUsers(runner, fixtures)
    // The steady state autovacuum reaches on its own: visibility map set, statistics current.
    progress('vacuum analyze...')
    const vacuumStarted = performance.now()
    await client.query('vacuum analyze')
    const vacuumMs = Math.round(performance.now() - vacuumStarted)
    const { rows: sizes } = await client.query<{ dispatches: number; registrations: number }>(
      `select (select count(*)::int from dispatch) as dispatches, (select count(*)::int from registration) as registrations`,
    )
    const n = (value: number | undefined) => (value ?? 0).toLocaleString('en-US')
    const { rows: range } = await client.query<{ start: string; end: string }>(
      `select to_char(percentile_disc(0.5) within group (order by last_access_date) at time zone 'UTC', 'YYYY-MM-DD') as start,
              to_char(max(last_access_date) at time zone 'UTC', 'YYYY-MM-DD') as end
       from registration where dispatch_id = $1 and completion_status = 'completed'`,
      [fixtures.bigDispatchId],
    )
    const inputs: ReadInputs = {
      fixtures,
      report: { status: 'completed', startDate: range[0]!.start, endDate: range[0]!.end },
      exportStartDate: await exportStartDay(runner, settings.exportRows),
    }
    const seed = {
      logs,
      vacuumMs,
      dispatchAfterFullSync: bloat[0],
      fixtures,
      report: inputs.report,
      exportStartDate: inputs.exportStartDate,
    }

    progress('starting the server on PostgreSQL with READ_CACHE=false (the cold path of the varied rows)...')
    const cold = await startServer({ databaseUrl: url }, sim, { READ_CACHE: 'false' })
    let varied: Awaited<ReturnType<typeof runVaried>>
    try {
      const sessions = await benchSessions(cold, fixtures)
      varied = await runVaried(
        cold,
        await loadVariedData(runner, fixtures.bigDispatchId, true),
        sessions,
        { connections: { list: 50, report: 20, logs: 20 }, overload: 100, postbacks: 20 },
        progress,
      )
      const target = postgresTarget(url)
      try {
        progress('plans of the slowest requests (EXPLAIN ANALYZE, BUFFERS)...')
        await explainSlowest(varied, sessions, target, 'postgres', progress)
      } finally {
        await target.close()
      }
    } finally {
      await cold.stop()
    }

    progress('starting the server on PostgreSQL (caches on: the repeated-URL rows)...')
    const server = await startServer({ databaseUrl: url }, sim)
    let run: DbRun
    try {
      const reads = await runReads(server, inputs, progress)
      const target = postgresTarget(url)
      try {
        await reads.baselines(target, progress)
      } finally {
        await target.close()
      }
      run = {
        database: 'postgres',
        dataSet: `PostgreSQL database \`portal_bench\`: ${fixtures.bigDispatchRegistrations.toLocaleString('en-US')} registrations in the big dispatch, ${n(sizes[0]?.registrations)} registrations and ${n(sizes[0]?.dispatches)} dispatches from the full sync, ${settings.logRows.toLocaleString('en-US')} activity_log rows; the client belongs to the big dispatch's company (${fixtures.clientCompanyDispatches} dispatches).`,
        rows: reads.rows,
        varied,
        export: reads.export,
        reportExports: reads.reportExports,
        login: reads.login,
        notes: [
          `After the full sync, before VACUUM: dispatch had ${bloat[0]?.live} live and ${bloat[0]?.dead} dead row versions in ${bloat[0]?.mb} MB (the registration counter trigger updates a dispatch row per registration page).`,
        ],
      }
    } finally {
      await server.stop()
    }
    const report: BenchReport = {
      startedAt,
      finishedAt: new Date().toISOString(),
      machine: info,
      settings: { ...settings },
      seed,
      sync: syncs,
      run,
      targets: [],
    }
    report.targets = checkTargets(run, report.sync)
    return { report }
  } finally {
    await client.end()
  }
}

/**
 * PGlite, the embedded default, as `npm start` runs it: demo mode (its own simulator, demo data
 * and accounts) in a fresh DATA_DIR, caches off, the varied rows at 20 connections.
 */
async function pglitePart(startedAt: string, info: Record<string, string | number>): Promise<BenchReport> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-bench-pglite-'))
  try {
    const { big, sizes, data } = await pgliteBenchData(dataDir, progress)
    const server = await startServer({ dataDir }, null, { READ_CACHE: 'false', SYNC_INTERVAL_MINUTES: '0' })
    let varied: Awaited<ReturnType<typeof runVaried>>
    let sessions: VariedSessions
    try {
      const as = (role: string) => DEMO_ACCOUNTS.find((a) => a.role === role)!.email
      const staff = []
      for (const role of ['admin', 'internal', 'sales'])
        staff.push(await signIn(server.baseUrl, as(role), DEMO_PASSWORD))
      const client = await signIn(server.baseUrl, as('client'), DEMO_PASSWORD)
      sessions = { staff, clients: [client], reportReaders: staff, admins: [staff[0]!] }
      varied = await runVaried(
        server,
        data,
        sessions,
        { connections: { list: 20, report: 20, logs: 20 }, overload: null, postbacks: 0 },
        progress,
      )
    } finally {
      await server.stop()
    }
    // The cached figures beside the cold ones: one URL of each mix, repeated, caches on.
    progress('PGlite: caches on, one URL of each mix repeated...')
    const cachedServer = await startServer({ dataDir }, null, { SYNC_INTERVAL_MINUTES: '0' })
    const cachedRows: RowResult[] = []
    try {
      for (const row of varied) {
        const session = row.id === 'varied-list-client' ? sessions.clients[0]! : sessions.admins[0]!
        const endpoint = await measureLoad({
          url: cachedServer.baseUrl + row.example,
          connections: row.connections,
          headers: { 'x-auth-token': session.accessToken },
        })
        cachedRows.push({
          id: `cached-${row.id}`,
          label: `cached, one URL repeated: ${row.label}`,
          path: row.example,
          group: 'cached',
          connections: row.connections,
          endpoint,
          sql: null,
          latencyRatio: null,
        })
        progress(`  ${rowLine(cachedRows.at(-1)!)}`)
      }
    } finally {
      await cachedServer.stop()
    }
    // The plans of each row's slowest requests, on the folder the server used (one process at a time).
    const planned = newPglite(path.join(dataDir, 'pglite'))
    try {
      progress('plans of the slowest requests on PGlite (EXPLAIN ANALYZE, BUFFERS)...')
      await explainSlowest(varied, sessions, pgliteTarget(planned), 'pglite', progress)
    } finally {
      await planned.close()
    }
    const run: DbRun = {
      database: 'pglite',
      dataSet: `PGlite in a fresh DATA_DIR, demo mode (what \`npm start\` runs): ${sizes.dispatches} dispatches, ${sizes.registrations.toLocaleString('en-US')} registrations (${Number(big.n).toLocaleString('en-US')} in the biggest dispatch), ${sizes.logs} activity_log rows.`,
      rows: cachedRows,
      varied,
      export: { skipped: 'measured on PostgreSQL' },
      login: null,
      notes: [
        'PGlite runs PostgreSQL in WebAssembly inside the server process: one statement at a time, on the same thread as the HTTP handling, so concurrency only queues.',
      ],
    }
    return {
      startedAt,
      finishedAt: new Date().toISOString(),
      machine: info,
      settings: { ...settings },
      seed: { demo: true },
      sync: null,
      run,
      targets: [],
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}

/**
 * `--report-only [date]`: rewrites bench/results/latest.md and the summary in docs/performance.md
 * from saved results, without measuring.
 */
function reportOnly(date: string) {
  const reports = (['postgres', 'pglite'] as const)
    .map((db) => path.join(RESULTS_DIR, `${date}-${db}.json`))
    .filter((file) => existsSync(file))
    .map((file) => JSON.parse(readFileSync(file, 'utf8')) as BenchReport)
  if (reports.length === 0) throw new Error(`no bench/results/${date}-*.json`)
  writeMarkdown(reports)
  progress(`bench/results/latest.md and docs/performance.md rewritten from ${reports.length} result file(s) of ${date}`)
}

async function main() {
  const only = process.argv.indexOf('--report-only')
  if (only >= 0) return reportOnly(process.argv[only + 1] ?? new Date().toISOString().slice(0, 10))
  const startedAt = new Date().toISOString()
  if (!settings.postgres) {
    const pglite = await pglitePart(startedAt, await machine(ADMIN_URL))
    pglite.targets = checkTargets(pglite.run, null)
    progress(`wrote ${writeJson(pglite)}`)
    for (const t of pglite.targets) progress(`  ${t.met ? 'met    ' : 'NOT MET'}  ${t.target}: ${t.measured}`)
    return
  }
  if (settings.reuse) progress(`PostgreSQL at ${new URL(ADMIN_URL).host}: portal_bench as it is (BENCH_REUSE=1)`)
  else {
    progress(`PostgreSQL at ${new URL(ADMIN_URL).host}: fresh database portal_bench`)
    await recreateBenchDatabase()
  }
  const info = await machine(benchDatabaseUrl())
  progress('starting the simulator at bench size...')
  const sim = await startBenchSimulator()
  const reports: BenchReport[] = []
  try {
    const { report } = await postgresPart(sim, startedAt, info)
    reports.push(report)
    progress(`wrote ${writeJson(report)}`)
    // Written now too, so the PostgreSQL figures survive a PGlite part that fails or overruns.
    writeMarkdown(reports)
    if (settings.pglite) {
      progress('PGlite part...')
      const pglite = await pglitePart(startedAt, info)
      pglite.targets = checkTargets(pglite.run, null)
      reports.push(pglite)
      progress(`wrote ${writeJson(pglite)}`)
    }
  } finally {
    await sim.process.stop()
  }
  writeMarkdown(reports)
  progress('bench/results/latest.md and docs/performance.md updated. Targets:')
  for (const t of reports.flatMap((r) => r.targets)) {
    progress(`  ${t.met === null ? 'n/a    ' : t.met ? 'met    ' : 'NOT MET'}  ${t.target}: ${t.measured}`)
  }
}

runMain(main)
