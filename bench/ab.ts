/**
 * `npm run bench:ab -- MIX URL [URL ...]`: one varied mix of the bench against servers
 * already running on portal_bench, taking turns, so a change can be measured against the code
 * before it on the same machine at the same moment (runs of the whole bench drift by about 10 %
 * from one to the next). MIX is list-admin, list-client, report, logs or learners. Each round
 * runs the same seeded requests once on every URL; the figures of every round are printed, then
 * the median of the rounds per URL. BENCH_AB_ROUNDS (3) and BENCH_DURATION_SECONDS set the length.
 */
import pg from 'pg'
import { signIn, type ApiSession } from './api-session'
import { BENCH_PASSWORD, benchDatabaseUrl } from './config'
import { measureLoad, type LoadResult } from './measure'
import { BENCH_STAFF, benchClientEmail, findFixtures } from './seed-users'
import { pgRunner } from './sql-runner'
import { BENCH_LOG_ACTIONS } from './seed-logs'
import {
  dispatchListRequests,
  learnerRequests,
  logsRequests,
  reportRequests,
  seededRandom,
  totalsProbe,
  type VariedRequest,
} from './varied'
import { loadVariedData, type VariedData } from './varied-phase'

export const MIXES = ['list-admin', 'list-client', 'report', 'logs', 'learners'] as const
export type Mix = (typeof MIXES)[number]
const CONNECTIONS: Record<Mix, number> = { 'list-admin': 50, 'list-client': 50, report: 20, logs: 20, learners: 20 }
const MIX_SIZE = 2_000

export async function requestsOf(mix: Mix, baseUrl: string): Promise<VariedRequest[]> {
  const client = new pg.Client({ connectionString: benchDatabaseUrl() })
  await client.connect()
  try {
    const runner = pgRunner(client)
    const fixtures = await findFixtures(runner)
    const data = await loadVariedData(runner, fixtures.bigDispatchId, false)
    const staff = await Promise.all(BENCH_STAFF.map((s) => signIn(baseUrl, s.email, BENCH_PASSWORD)))
    const clients = await Promise.all(
      [fixtures.clientCompanyId, ...fixtures.otherClientCompanyIds].map((_, i) =>
        signIn(baseUrl, benchClientEmail(i), BENCH_PASSWORD),
      ),
    )
    const readers = [...staff, clients[0]!]
    return await mixRequests(mix, baseUrl, data, fixtures.bigDispatchId, {
      staff,
      clients,
      reportReaders: readers,
      learnerReaders: [...readers, ...clients.filter((c) => c.user.companyId === data.companyId)],
      admins: staff.filter((s) => s.user.role === 'admin'),
    })
  } finally {
    await client.end()
  }
}

/** Who sends each mix's requests. */
export interface MixReaders {
  staff: ApiSession[]
  clients: ApiSession[]
  reportReaders: ApiSession[]
  learnerReaders: ApiSession[]
  admins: ApiSession[]
}

/** A mix's seeded requests, with page numbers drawn from the totals the server at baseUrl answers. */
export async function mixRequests(
  mix: Mix,
  baseUrl: string,
  data: VariedData,
  bigDispatchId: string,
  readers: MixReaders,
): Promise<VariedRequest[]> {
  const r = seededRandom(2026)
  const probe = totalsProbe(baseUrl, (body) => {
    const b = body as { pagination?: { totalItems: number }; totalLogs?: number }
    return mix === 'logs' ? (b.totalLogs ?? 0) : (b.pagination?.totalItems ?? 0)
  })
  switch (mix) {
    case 'list-admin':
      return dispatchListRequests(r, data.vocab, readers.staff, MIX_SIZE, probe)
    case 'list-client':
      return dispatchListRequests(r, data.vocab, readers.clients, MIX_SIZE, probe)
    case 'report':
      return reportRequests(r, data.vocab, bigDispatchId, readers.reportReaders, MIX_SIZE, probe)
    case 'logs':
      return logsRequests(r, data.vocab, BENCH_LOG_ACTIONS, readers.admins, MIX_SIZE, probe)
    case 'learners':
      return learnerRequests(r, data.vocab, data.companyId, readers.learnerReaders, MIX_SIZE, probe)
  }
}

/** The same request on another server: its own sign-in, so the tokens are that server's. */
async function retarget(requests: VariedRequest[], from: string, to: string): Promise<VariedRequest[]> {
  if (from === to) return requests
  const tokens = new Map<string, string>()
  for (const email of new Set(requests.map((q) => q.user))) {
    tokens.set(email, (await signIn(to, email, BENCH_PASSWORD)).accessToken)
  }
  return requests.map((q) => ({ ...q, token: tokens.get(q.user)! }))
}

async function main() {
  const [mixArg, ...urls] = process.argv.slice(2)
  const mix = MIXES.find((m) => m === mixArg)
  if (!mix || urls.length === 0) {
    console.error(`usage: npm run bench:ab -- ${MIXES.join('|')} URL [URL ...]`)
    process.exit(2)
  }
  const rounds = Number(process.env.BENCH_AB_ROUNDS ?? 3)
  const base = await requestsOf(mix, urls[0]!)
  const perUrl = await Promise.all(urls.map((url) => retarget(base, urls[0]!, url)))
  const results = urls.map(() => [] as LoadResult[])
  for (let round = 1; round <= rounds; round += 1) {
    for (const [i, url] of urls.entries()) {
      const result = await measureLoad({ url, connections: CONNECTIONS[mix], requests: perUrl[i]! })
      results[i]!.push(result)
      console.log(
        `round ${round} ${url}: p50 ${result.p50} ms, p95 ${result.p95} ms, ${result.rps} req/s, non-2xx ${result.non2xx}, errors ${result.errors}, CPU ms/request ${result.cpuMsPerRequest.machine} (PostgreSQL ${result.cpuMsPerRequest.postgres}), other load ${result.otherCores}`,
      )
    }
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!
  for (const [i, url] of urls.entries()) {
    const runs = results[i]!
    console.log(
      `${mix} ${url} (median of ${runs.length}): p50 ${median(runs.map((r) => r.p50))} ms, p95 ${median(runs.map((r) => r.p95))} ms, ${median(runs.map((r) => r.rps))} req/s, CPU ms/request ${median(runs.map((r) => r.cpuMsPerRequest.machine))} (PostgreSQL ${median(runs.map((r) => r.cpuMsPerRequest.postgres))})`,
    )
  }
}

// Run only as the script (bench/serial.ts imports requestsOf).
if (process.argv[1]?.endsWith('ab.ts'))
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error)
      process.exit(1)
    },
  )
