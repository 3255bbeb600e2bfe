/**
 * `npx tsx bench/scales.ts [SMALL] [LARGE] [--rounds 3]`: whether a request's cost grows with the
 * data. The varied rows of the bench (caches off, 20 connections each, no postbacks) on two
 * databases of the same shape at different sizes, by default `portal_bench` and `portal_bench10`
 * as `npm run bench:seed -- --scale 1` and `--scale 10` build them. One server runs on each; the
 * rounds take turns between them (each round starting with the other one), so a machine whose
 * speed drifts weighs on both alike. Prints, per row, the median over the rounds of p50, p95,
 * req/s and the CPU a request of PostgreSQL and of the server on each database and the large
 * one's ratios; writes bench/results/<date>-scales.json and bench/results/scales-latest.md.
 *
 * The servers are told a SCORM Cloud that refuses connections: what is measured is the seeded
 * mirror, and no sync may write into it meanwhile (the start-up sync fails and is logged).
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import pg from 'pg'
import { DEFAULT_APP_ID } from '@portal/scorm-cloud-sim'
import { killChildren, runMain } from './child-process'
import { ADMIN_URL, RESULTS_DIR, settings } from './config'
import { databaseUrlOf } from './pg-admin'
import { startServer, type RunningServer } from './run-server'
import { markSynced } from './seed-sql'
import { findFixtures, type BenchFixtures } from './seed-users'
import { pgRunner } from './sql-runner'
import { benchSessions, loadVariedData, runVaried, type VariedData, type VariedRowResult } from './varied-phase'

const CONNECTIONS = 20
/** What a row may grow by at the larger size and still count as flat. */
const GROWTH_LIMIT = 1.3
/**
 * Nothing listens on the discard port: every call to SCORM Cloud is refused at once. The
 * application is the bench simulator's, the one `portal_bench` was synced from: a server refuses
 * to start on a database made with another application.
 */
const NO_PROVIDER = { url: 'http://127.0.0.1:9', appId: DEFAULT_APP_ID, secretKey: 'bench-no-provider-secret' }

process.on('exit', killChildren)

interface Side {
  name: string
  fixtures: BenchFixtures
  sizes: { dispatches: number; registrations: number; logs: number }
  data: VariedData
  server: RunningServer
}

interface RowFigures {
  p50: number
  p95: number
  rps: number
  postgresCpu: number
  serverCpu: number
  non2xx: number
  errors: number
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}
const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits
const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`)

async function open(name: string): Promise<Side> {
  const url = databaseUrlOf(name)
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    const runner = pgRunner(client)
    await markSynced(runner)
    const fixtures = await findFixtures(runner)
    const data = await loadVariedData(runner, fixtures.bigDispatchId, false)
    const { rows } = await client.query<{ dispatches: number; registrations: number; logs: number }>(
      `select (select count(*)::int from dispatch) as dispatches, (select count(*)::int from registration) as registrations,
              (select count(*)::int from activity_log) as logs`,
    )
    const server = await startServer({ databaseUrl: url }, NO_PROVIDER, { READ_CACHE: 'false' })
    log(
      `${name}: server at ${server.baseUrl}; ${JSON.stringify(rows[0])}, big dispatch ${fixtures.bigDispatchRegistrations}`,
    )
    return { name, fixtures, sizes: rows[0]!, data, server }
  } finally {
    await client.end()
  }
}

function figures(rows: VariedRowResult[]): RowFigures {
  const pick = (f: (r: VariedRowResult) => number) => round(median(rows.map(f)))
  return {
    p50: pick((r) => r.endpoint.p50),
    p95: pick((r) => r.endpoint.p95),
    rps: pick((r) => r.endpoint.rps),
    postgresCpu: pick((r) => r.endpoint.cpuMsPerRequest.postgres),
    serverCpu: pick((r) => r.endpoint.cpuMsPerRequest.server ?? 0),
    non2xx: rows.reduce((n, r) => n + r.endpoint.non2xx, 0),
    errors: rows.reduce((n, r) => n + r.endpoint.errors, 0),
  }
}

function markdown(sides: Side[], table: { id: string; label: string; small: RowFigures; large: RowFigures }[]) {
  const [small, large] = sides as [Side, Side]
  const size = (s: Side) =>
    `\`${s.name}\`: ${s.sizes.dispatches.toLocaleString('en-US')} dispatches, ${s.sizes.registrations.toLocaleString('en-US')} registrations (${s.fixtures.bigDispatchRegistrations.toLocaleString('en-US')} in the biggest dispatch), ${s.sizes.logs.toLocaleString('en-US')} log rows`
  const ratio = (a: number, b: number) => (a > 0 ? round(b / a) : 0)
  const lines = [
    `Varied rows, caches off, ${CONNECTIONS} connections, median of the rounds. ${size(small)}; ${size(large)}.`,
    '',
    `| row | p95 ms (small / large) | ratio | PostgreSQL CPU ms a request | ratio | server CPU ms a request | ratio | req/s | non-2xx, errors |`,
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ]
  for (const row of table) {
    const p = ratio(row.small.p95, row.large.p95)
    const c = ratio(row.small.postgresCpu, row.large.postgresCpu)
    const s = ratio(row.small.serverCpu, row.large.serverCpu)
    const flag = (r: number) => (r > GROWTH_LIMIT ? ` **over ${GROWTH_LIMIT}**` : '')
    lines.push(
      `| ${row.label} | ${row.small.p95} / ${row.large.p95} | ${p}${flag(p)} | ${row.small.postgresCpu} / ${row.large.postgresCpu} | ${c}${flag(c)} | ${row.small.serverCpu} / ${row.large.serverCpu} | ${s}${flag(s)} | ${row.small.rps} / ${row.large.rps} | ${row.small.non2xx + row.large.non2xx}, ${row.small.errors + row.large.errors} |`,
    )
  }
  return lines.join('\n')
}

async function main() {
  const names = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && all[i - 1] !== '--rounds')
  const roundsAt = process.argv.indexOf('--rounds')
  const rounds = roundsAt >= 0 ? Number(process.argv[roundsAt + 1]) : 3
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds must be a positive whole number')
  const [smallName = 'portal_bench', largeName = 'portal_bench10'] = names
  log(`PostgreSQL at ${new URL(ADMIN_URL).host}: ${smallName} against ${largeName}, ${rounds} rounds`)
  const sides: Side[] = []
  try {
    for (const name of [smallName, largeName]) sides.push(await open(name))
    const sessions = await Promise.all(sides.map((s) => benchSessions(s.server, s.fixtures)))
    const results: VariedRowResult[][][] = sides.map(() => [])
    for (let r = 0; r < rounds; r += 1) {
      const order = r % 2 === 0 ? [0, 1] : [1, 0]
      for (const i of order) {
        log(`round ${r + 1}: ${sides[i]!.name}`)
        results[i]!.push(
          await runVaried(
            sides[i]!.server,
            sides[i]!.data,
            sessions[i]!,
            {
              connections: { list: CONNECTIONS, report: CONNECTIONS, logs: CONNECTIONS },
              overload: null,
              postbacks: 0,
            },
            log,
          ),
        )
      }
    }
    const ids = results[0]![0]!.map((row) => ({ id: row.id, label: row.group }))
    const table = ids.map(({ id }) => {
      const of = (i: number) => figures(results[i]!.map((round) => round.find((row) => row.id === id)!))
      const label = results[0]![0]!
        .find((row) => row.id === id)!
        .label.replace(/ \([\d,]+ learners\)| of the [\d,]+-registration company/, '')
      return { id, label, small: of(0), large: of(1) }
    })
    const text = markdown(sides, table)
    console.log(`\n${text}\n`)
    mkdirSync(RESULTS_DIR, { recursive: true })
    const date = new Date().toISOString().slice(0, 10)
    const json = path.join(RESULTS_DIR, `${date}-scales.json`)
    writeFileSync(
      json,
      JSON.stringify(
        {
          date: new Date().toISOString(),
          rounds,
          connections: CONNECTIONS,
          durationSeconds: settings.durationSeconds,
          databases: sides.map((s) => ({ name: s.name, sizes: s.sizes, fixtures: s.fixtures })),
          rows: table,
          raw: results.map((perRound) =>
            perRound.map((rows) => rows.map((row) => ({ id: row.id, endpoint: row.endpoint, slowest: row.slowest }))),
          ),
        },
        null,
        2,
      ) + '\n',
    )
    writeFileSync(path.join(RESULTS_DIR, 'scales-latest.md'), `# Both sizes (${date})\n\n${text}\n`)
    log(`wrote ${json} and bench/results/scales-latest.md`)
  } finally {
    await Promise.all(sides.map((s) => s.server.stop()))
  }
}

runMain(main)
