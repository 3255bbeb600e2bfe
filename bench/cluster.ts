/**
 * `npm run bench:cluster`: the bench's read rows (bench/scenarios.ts) against one, two and three
 * nodes of the built server on one PostgreSQL, behind HAProxy with deploy/haproxy/haproxy.cfg.
 * Per row: requests per second and latency, CPU milliseconds per request (the nodes' own, from
 * /proc, and the whole machine's and PostgreSQL's from measure.ts), lock waits (pg_stat_activity
 * sampled every 100 ms: samples with a backend waiting on a lock, and the most at once); per node
 * count, the job engine's latency from enqueue to start for alert jobs sent by postbacks.
 *
 * A SMALL data set (the simulator sizes below, synced by the first node's start-up sync), not the
 * bench's 50,000 dispatches: this compares node counts, it does not repeat `npm run bench`.
 * Needs PostgreSQL (TEST_DATABASE_URL or DATABASE_URL: a database of its own is made and
 * dropped), HAProxy (scripts/install-haproxy.sh) and the built server (`npm run build -w
 * @portal/server`). Writes bench/results/cluster-latest.md.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { startSimulator } from '@portal/scorm-cloud-sim'
import { createPgDatabase } from '../apps/server/src/test/reliability/processes/server-process'
import { createNode, eventually, startBalancer, type Node } from '../apps/server/src/test/cluster/cluster-infra'
import type { Viewer } from '../apps/server/src/lib/viewer'
import { signIn } from './api-session'
import {
  ADMIN_EMAIL,
  BENCH_PASSWORD,
  CLIENT_EMAIL,
  JWT_SECRET,
  POSTBACK_PASSWORD,
  POSTBACK_USER,
  RESULTS_DIR,
} from './config'
import { measureLoad } from './measure'
import { readScenarios, type ScenarioContext } from './scenarios'
import { findFixtures, seedUsers } from './seed-users'
import { pgRunner } from './sql-runner'

process.env.TEST_DATABASE_URL ??= process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const basePort = Number(process.env.CLUSTER_PORT ?? 3350)
const seconds = Number(process.env.BENCH_DURATION_SECONDS ?? 5)
const SIZES = { courses: 40, destinations: 20, dispatches: 400, registrations: 6_000, bigDispatchRegistrations: 2_000 }
const TICKS_PER_SECOND = 100

const log = (line: string) => console.log(`[bench:cluster] ${line}`)

/** User plus system CPU time of a process, in milliseconds (Linux /proc). */
function cpuMs(pid: number | null): number {
  if (pid === null) return 0
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND
}

/** Samples pg_stat_activity of one database every 100 ms until stopped. */
function lockSampler(client: pg.Client, database: string) {
  let samples = 0
  let waiting = 0
  let most = 0
  let on = true
  const done = (async () => {
    while (on) {
      const { rows } = await client.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity where datname = $1 and wait_event_type = 'Lock'`,
        [database],
      )
      samples++
      if (rows[0]!.n > 0) waiting++
      most = Math.max(most, rows[0]!.n)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  })()
  return async () => {
    on = false
    await done
    return { samples, waiting, most }
  }
}

const sim = await startSimulator({ sizes: SIZES, pageSize: 100, port: basePort + 5 })
const pgdb = await createPgDatabase('portal_bench_cluster')
const admin = new pg.Client({ connectionString: pgdb.url })
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-bench-cluster-'))
const env: Record<string, string> = {
  DATABASE_URL: pgdb.url,
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  TRUST_PROXY: 'true',
  MFA_DEFAULT_ROLES: 'none',
  JWT_SECRET,
  SSO_SECRET_KEY: 'bench-cluster-sso-key-0123456789-0123456789',
  POSTBACK_USER,
  POSTBACK_PASSWORD,
  ADMIN_EMAIL,
  ADMIN_PASSWORD: BENCH_PASSWORD,
  SYNC_INTERVAL_MINUTES: '0',
  WEB_DIST_DIR: '/nonexistent',
  DATA_DIR: dataDir,
  SCORM_CLOUD_APP_ID: sim.appId,
  SCORM_CLOUD_SECRET_KEY: sim.secretKey,
  SCORM_CLOUD_BASE_URL: sim.url,
}
const nodes: Node[] = [1, 2, 3].map((i) => createNode(`node${i}`, 'all', basePort + i, env))
const lines: string[] = []
try {
  log(`one node syncs the small data set (${JSON.stringify(SIZES)})...`)
  await nodes[0]!.start()
  await admin.connect()
  const synced = await eventually(
    async () => {
      const { rows } = await admin.query(`select 1 from sync_run where kind = 'registrations' and status = 'succeeded'`)
      return rows.length > 0
    },
    300_000,
    1_000,
  )
  if (!synced) throw new Error('the start-up sync did not finish')
  const fixtures = await findFixtures(pgRunner(admin))
  await seedUsers(pgRunner(admin), fixtures)
  const ctx: ScenarioContext = {
    fixtures,
    // The rows' paths are all this bench uses; the viewers serve the SQL baselines of `npm run bench`.
    viewers: { admin: {} as Viewer & { id: string }, client: {} as Viewer & { id: string } },
    report: { status: 'completed', startDate: '2000-01-01', endDate: '2100-01-01', deepPage: 1 },
    logs: { startDate: '2000-01-01', endDate: '2100-01-01', deepestPage: 1 },
  }
  const scenarios = readScenarios(ctx).filter((s) => s.group !== 'logs')
  lines.push(
    '| nodes | row | connections | req/s | p50 ms | p95 ms | node CPU ms/req | machine CPU ms/req | PostgreSQL CPU ms/req | lock-wait samples | most waiting |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  )
  const jobLines: string[] = ['| nodes | alert jobs | enqueue to start p50 ms | max ms |', '|---|---|---|---|']
  for (const count of [1, 2, 3]) {
    for (const node of nodes.slice(0, count)) if (!node.alive()) await node.start()
    const balancer = await startBalancer(basePort, basePort + 6, nodes.slice(0, count))
    try {
      const sessions = {
        admin: await signIn(balancer.url, ADMIN_EMAIL, BENCH_PASSWORD),
        client: await signIn(balancer.url, CLIENT_EMAIL, BENCH_PASSWORD),
      }
      for (const scenario of scenarios) {
        const connections = Math.max(...scenario.connections)
        const running = nodes.slice(0, count)
        const before = running.map((n) => cpuMs(n.pid()))
        const stopSampler = lockSampler(admin, pgdb.name)
        const result = await measureLoad({
          url: balancer.url + scenario.path,
          connections,
          headers: { 'x-auth-token': sessions[scenario.as].accessToken },
          durationSeconds: seconds,
          warmupSeconds: 1,
        })
        const locks = await stopSampler()
        const nodeCpu = running.reduce((sum, n, i) => sum + cpuMs(n.pid()) - before[i]!, 0)
        const line = `| ${count} | ${scenario.id} | ${connections} | ${Math.round(result.rps)} | ${result.p50} | ${result.p95} | ${(nodeCpu / Math.max(1, result.requests)).toFixed(2)} | ${result.cpuMsPerRequest.machine} | ${result.cpuMsPerRequest.postgres} | ${locks.waiting}/${locks.samples} | ${locks.most} |`
        lines.push(line)
        log(line)
      }
      // Job latency: postbacks through the balancer send alert jobs, which the nodes pick up.
      const since = new Date()
      const auth = `Basic ${Buffer.from(`${POSTBACK_USER}:${POSTBACK_PASSWORD}`).toString('base64')}`
      for (let i = 0; i < 100; i++) {
        const registration = sim.advanceRegistration(sim.data.registrationAt(i)!.id)
        await fetch(`${balancer.url}/api/webhooks/scorm-cloud/registrations`, {
          method: 'POST',
          headers: { authorization: auth, 'content-type': 'application/json' },
          body: JSON.stringify(registration),
        })
      }
      await new Promise((resolve) => setTimeout(resolve, 5_000))
      const { rows } = await admin.query<{ n: number; p50: number; max: number }>(
        `select count(*)::int as n,
                coalesce(percentile_cont(0.5) within group (order by extract(epoch from started_on - created_on) * 1000), 0)::int as p50,
                coalesce(max(extract(epoch from started_on - created_on) * 1000), 0)::int as max
           from pgboss.job where name like 'alerts%' and created_on >= $1 and started_on is not null`,
        [since],
      )
      const jobs = `| ${count} | ${rows[0]!.n} | ${rows[0]!.p50} | ${rows[0]!.max} |`
      jobLines.push(jobs)
      log(jobs)
    } finally {
      await balancer.stop()
    }
  }
  lines.push('', ...jobLines)
  const file = path.join(RESULTS_DIR, 'cluster-latest.md')
  writeFileSync(
    file,
    `# bench:cluster, ${new Date().toISOString()}\n\nSmall data set ${JSON.stringify(SIZES)}; ${seconds} s a row; every node on this machine.\n\n${lines.join('\n')}\n`,
  )
  log(`written: ${file}`)
} finally {
  await Promise.all(nodes.map((n) => n.stop()))
  await admin.end().catch(() => undefined)
  await pgdb.drop()
  await sim.close()
  rmSync(dataDir, { recursive: true, force: true })
}
