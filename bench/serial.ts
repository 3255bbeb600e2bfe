/**
 * Replays one varied mix serially (one request at a time) against a server and groups the
 * latencies by what the request asks for: where a mix's time goes.
 * `npx tsx bench/serial.ts MIX URL`: a running server on `portal_bench`.
 * `npx tsx bench/serial.ts MIX --pglite`: PGlite with the demo data and its activity log, as the
 * bench's PGlite part builds it, in a fresh folder (or the folder BENCH_PGLITE_DIR names, kept).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../apps/server/src/modules/demo/demo-accounts'
import { mixRequests, requestsOf, type Mix } from './ab'
import { signIn } from './api-session'
import { pgliteBenchData } from './pglite-data'
import { startServer } from './run-server'
import type { VariedRequest } from './varied'

const classOf = (path: string) => {
  const u = new URL(path, 'http://x')
  const s = u.searchParams
  // The log's search is `searchTerm`, the other lists' `search`.
  const term = s.get('search') ?? s.get('searchTerm')
  const search = term ? (term.length <= 2 ? 'search2' : term.includes('.') ? 'search.dotted' : 'search') : 'nosearch'
  const page = Number(s.get('page') ?? 1)
  // The filters that change a plan: a user, an action, a date window.
  const filters = [
    s.get('userId') && 'user',
    s.get('action') && 'action',
    (s.get('startDate') ?? s.get('endDate')) && 'dates',
  ].filter(Boolean)
  const size = s.get('pageSize') ?? s.get('limit')
  return `${search} ${page === 1 ? 'p1' : page <= 5 ? 'p2-5' : 'deep'} size${size}${filters.length ? ` ${filters.join('+')}` : ''}`
}

export async function replaySerially(requests: VariedRequest[], url: string) {
  const times: { path: string; ms: number }[] = []
  for (const pass of [0, 1]) {
    for (const q of requests.slice(0, 800)) {
      const t = performance.now()
      const res = await fetch(url + q.path, { headers: { 'x-auth-token': q.token } })
      await res.arrayBuffer()
      if (pass === 1) times.push({ path: q.path, ms: performance.now() - t })
    }
  }
  const groups = new Map<string, number[]>()
  for (const t of times) {
    const k = classOf(t.path)
    groups.set(k, [...(groups.get(k) ?? []), t.ms])
  }
  const total = times.reduce((a, t) => a + t.ms, 0)
  console.log(`serial mean ${(total / times.length).toFixed(2)} ms over ${times.length}`)
  for (const [k, v] of [...groups].sort((a, b) => b[1].reduce((x, y) => x + y, 0) - a[1].reduce((x, y) => x + y, 0))) {
    const sum = v.reduce((a, b) => a + b, 0)
    console.log(
      `${k.padEnd(30)} n=${String(v.length).padStart(4)} mean ${(sum / v.length).toFixed(2)} ms  share ${((100 * sum) / total).toFixed(1)} %`,
    )
  }
  const slow = [...times].sort((a, b) => b.ms - a.ms).slice(0, 15)
  for (const t of slow) console.log(`${t.ms.toFixed(1)} ms ${t.path}`)
}

/** The bench's PGlite data (bench/pglite-data.ts), a server on it, and the mix's requests. */
async function onPglite(mix: Mix) {
  const kept = process.env.BENCH_PGLITE_DIR
  const dataDir = kept ?? mkdtempSync(path.join(os.tmpdir(), 'portal-serial-pglite-'))
  const build = !existsSync(path.join(dataDir, 'pglite'))
  mkdirSync(dataDir, { recursive: true })
  const { big, data } = await pgliteBenchData(dataDir, console.log, build)
  const server = await startServer({ dataDir }, null, { READ_CACHE: 'false', SYNC_INTERVAL_MINUTES: '0' })
  try {
    const as = (role: string) => DEMO_ACCOUNTS.find((a) => a.role === role)!.email
    const staff = []
    for (const role of ['admin', 'internal', 'sales']) staff.push(await signIn(server.baseUrl, as(role), DEMO_PASSWORD))
    const clients = [await signIn(server.baseUrl, as('client'), DEMO_PASSWORD)]
    // As the bench's PGlite part sends them (bench/run.ts pglitePart).
    const readers = { staff, clients, reportReaders: staff, learnerReaders: staff, admins: [staff[0]!] }
    await replaySerially(await mixRequests(mix, server.baseUrl, data, big.id, readers), server.baseUrl)
  } finally {
    await server.stop()
    if (!kept) rmSync(dataDir, { recursive: true, force: true })
  }
}

async function main() {
  const [mix, url] = process.argv.slice(2)
  if (url === '--pglite') return onPglite(mix as Mix)
  await replaySerially(await requestsOf(mix as never, url!), url!)
}
main().then(
  () => process.exit(0),
  (e) => {
    console.error(e)
    process.exit(1)
  },
)
