/**
 * The varied rows of the bench against one running server: the dispatch list as
 * staff and as clients, the completion report of the biggest dispatch and the activity logs,
 * each with its own list of varied requests (varied.ts); again with postbacks arriving at a
 * steady rate; again at 100 connections. After each row, the slowest requests of the row are
 * read from the server's own request log, so their plans can be shown.
 */
import { readFileSync } from 'node:fs'
import { Value } from 'typebox/value'
import {
  DispatchListQuerySchema,
  LearnerListQuerySchema,
  LogListQuerySchema,
  ReportQuerySchema,
  type DispatchListQuery,
  type LearnerListQuery,
  type LogListQuery,
  type ReportQuery,
} from '@portal/shared'
import type { Db } from '../apps/server/src/db/client'
import { dispatchesServiceOf, learnersServiceOf, logsServiceOf, reportsServiceOf } from './services'
import { signIn, type ApiSession } from './api-session'
import { explainWork, type StatementPlan } from './explain'
import { measureLoad, type LoadResult } from './measure'
import { loadLearners, startPostbacks, type Learner } from './postbacks'
import type { RunningServer } from './run-server'
import { BENCH_LOG_ACTIONS } from './seed-logs'
import { BENCH_STAFF, benchClientEmail, type BenchFixtures } from './seed-users'
import { BENCH_PASSWORD } from './config'
import type { SqlTarget } from './sql-baselines'
import type { SqlRunner } from './sql-runner'
import {
  dispatchListRequests,
  learnerRequests,
  loadVocabulary,
  logsRequests,
  reportRequests,
  seededRandom,
  totalsProbe,
  type VariedRequest,
  type Vocabulary,
} from './varied'

export interface SlowRequest {
  path: string
  ms: number
  user: string
}

export interface VariedRowResult {
  id: string
  label: string
  group: 'dispatch list' | 'completion report' | 'logs' | 'learners'
  connections: number
  /** Postbacks a second sent meanwhile (0: none). */
  postbacksPerSecond: number
  postbacks?: { sent: number; statuses: Record<string, number>; perSecond: number }
  /** Distinct requests in the row's mix, and an example. */
  distinctRequests: number
  example: string
  endpoint: LoadResult
  slowest: SlowRequest[]
  plans?: { path: string; user: string; statements: Omit<StatementPlan, 'params'>[] }[]
}

export interface VariedSessions {
  staff: ApiSession[]
  clients: ApiSession[]
  /** Who may read the big dispatch's report: staff and the clients of its company. */
  reportReaders: ApiSession[]
  admins: ApiSession[]
}

const MIX_SIZE = 2_000

/** Signed-in sessions of the bench accounts (seed-users.ts) for the varied rows. */
export async function benchSessions(server: RunningServer, fixtures: BenchFixtures): Promise<VariedSessions> {
  const staff = []
  for (const account of BENCH_STAFF) staff.push(await signIn(server.baseUrl, account.email, BENCH_PASSWORD))
  const clients = []
  for (let i = 0; i <= fixtures.otherClientCompanyIds.length; i += 1) {
    clients.push(await signIn(server.baseUrl, benchClientEmail(i), BENCH_PASSWORD))
  }
  return {
    staff,
    clients,
    reportReaders: [...staff, clients[0]!],
    admins: staff.filter((s) => s.user.role === 'admin'),
  }
}

/** Requests of the server's log since `offset` (one JSON line each), slowest first. */
function slowestSince(
  logFile: string,
  offset: number,
  users: Map<string, string>,
): { slowest: SlowRequest[]; end: number } {
  const text = readFileSync(logFile, 'utf8')
  const lines = text.slice(offset).split('\n')
  const seen = new Map<string, number>()
  for (const line of lines) {
    if (!line.includes('"request completed"')) continue
    try {
      const entry = JSON.parse(line) as { req?: { url?: string }; responseTime?: number }
      const url = entry.req?.url
      // Only the row's own requests: the server's logger writes asynchronously, so the last
      // lines of the row before may reach the file after that row's read (a log search once
      // stood among the learners' slowest), and the postbacks are not the row's.
      if (!url || entry.responseTime === undefined || !users.has(url)) continue
      seen.set(url, Math.max(seen.get(url) ?? 0, entry.responseTime))
    } catch {
      // A line cut by the read: the next row's read starts after it.
    }
  }
  const slowest = [...seen.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([path, ms]) => ({ path, ms, user: users.get(path) ?? '' }))
  return { slowest, end: text.length }
}

/** What the mix is made from, read from the database before the rows (PGlite: before the server opens it). */
export interface VariedData {
  vocab: Vocabulary
  learners: Learner[]
  bigDispatchId: string
  /** The big dispatch's company (the learner view's row). */
  companyId: string
}

export async function loadVariedData(db: SqlRunner, bigDispatchId: string, postbacks: boolean): Promise<VariedData> {
  return {
    vocab: await loadVocabulary(db, bigDispatchId),
    learners: postbacks ? await loadLearners(db, 5_000) : [],
    bigDispatchId,
    companyId:
      (await db.query<{ v: string }>(`select destination_id as v from dispatch where id = $1`, [bigDispatchId])).rows[0]
        ?.v ?? '',
  }
}

export async function runVaried(
  server: RunningServer,
  data: VariedData,
  sessions: VariedSessions,
  options: { connections: { list: number; report: number; logs: number }; overload: number | null; postbacks: number },
  progress: (line: string) => void,
): Promise<VariedRowResult[]> {
  progress('varied mix: page counts asked of the API...')
  const { vocab, learners, bigDispatchId } = data
  const r = seededRandom(2026)
  const probe = (field: 'list' | 'report' | 'logs') =>
    totalsProbe(server.baseUrl, (body) => {
      const b = body as { pagination?: { totalItems: number }; totalLogs?: number }
      return field === 'logs' ? (b.totalLogs ?? 0) : (b.pagination?.totalItems ?? 0)
    })
  const mixes: {
    id: string
    label: string
    group: VariedRowResult['group']
    connections: number
    requests: VariedRequest[]
  }[] = [
    {
      id: 'varied-list-admin',
      label: 'dispatch list, staff, varied',
      group: 'dispatch list',
      connections: options.connections.list,
      requests: await dispatchListRequests(r, vocab, sessions.staff, MIX_SIZE, probe('list')),
    },
    {
      id: 'varied-list-client',
      label: 'dispatch list, clients, varied',
      group: 'dispatch list',
      connections: options.connections.list,
      requests: await dispatchListRequests(r, vocab, sessions.clients, MIX_SIZE, probe('list')),
    },
    {
      id: 'varied-report',
      label: 'completion report (100,000 learners), varied',
      group: 'completion report',
      connections: options.connections.report,
      requests: await reportRequests(r, vocab, bigDispatchId, sessions.reportReaders, MIX_SIZE, probe('report')),
    },
    {
      id: 'varied-logs',
      label: 'activity logs, varied incl. searches',
      group: 'logs',
      connections: options.connections.logs,
      requests: await logsRequests(r, vocab, BENCH_LOG_ACTIONS, sessions.admins, MIX_SIZE, probe('logs')),
    },
    {
      id: 'varied-learners',
      label: 'learners of the 100,000-registration company, varied',
      group: 'learners',
      connections: options.connections.report,
      requests: await learnerRequests(
        r,
        vocab,
        data.companyId,
        [...sessions.reportReaders, ...sessions.clients.filter((c) => c.user.companyId === data.companyId)],
        MIX_SIZE,
        probe('report'),
      ),
    },
  ]
  const rows: VariedRowResult[] = []
  let logOffset = readFileSync(server.logFile, 'utf8').length
  const run = async (
    mix: (typeof mixes)[number],
    connections: number,
    postbacksPerSecond: number,
    suffix: string,
  ): Promise<void> => {
    const users = new Map(mix.requests.map((q) => [q.path, q.user]))
    const driver = postbacksPerSecond > 0 ? startPostbacks(server.baseUrl, learners, postbacksPerSecond) : null
    const endpoint = await measureLoad({
      url: server.baseUrl,
      connections,
      requests: mix.requests,
      serverPid: server.pid,
    })
    const postbacks = driver ? await driver.stop() : undefined
    const { slowest, end } = slowestSince(server.logFile, logOffset, users)
    logOffset = end
    const row: VariedRowResult = {
      id: `${mix.id}${suffix}`,
      label: `${mix.label}${postbacksPerSecond ? `, ${postbacksPerSecond} postbacks/s` : ''}`,
      group: mix.group,
      connections,
      postbacksPerSecond,
      ...(postbacks ? { postbacks } : {}),
      distinctRequests: new Set(mix.requests.map((q) => q.path)).size,
      example: mix.requests[0]!.path,
      endpoint,
      slowest,
    }
    rows.push(row)
    progress(
      `  ${row.label.padEnd(58)} ${String(connections).padStart(4)} conn  p50 ${endpoint.p50} ms  p95 ${endpoint.p95} ms  ${endpoint.rps} req/s  CPU ms/request PostgreSQL ${endpoint.cpuMsPerRequest.postgres}, server ${endpoint.cpuMsPerRequest.server ?? '-'}  non-2xx ${endpoint.non2xx} (503: ${endpoint.refused.count}, p95 ${endpoint.refused.p95} ms)  errors ${endpoint.errors}${postbacks ? `  postbacks ${postbacks.perSecond}/s ${JSON.stringify(postbacks.statuses)}` : ''}`,
    )
  }
  for (const mix of mixes) await run(mix, mix.connections, 0, '')
  if (options.postbacks > 0) {
    for (const mix of mixes) await run(mix, mix.connections, options.postbacks, '-postbacks')
  }
  if (options.overload) {
    for (const mix of mixes) await run(mix, options.overload, 0, `-${options.overload}`)
  }
  return rows
}

/** The viewer a request's user was, by e-mail, for replaying its work on the services. */
function viewerOf(sessions: VariedSessions, email: string) {
  const all = [...sessions.staff, ...sessions.clients, ...sessions.reportReaders, ...sessions.admins]
  const session = all.find((s) => s.user.email === email) ?? sessions.admins[0]!
  return { id: session.user.id, role: session.user.role, companyId: session.user.companyId }
}

/**
 * What the server runs for a request path, on the given database, caches off (the cold path);
 * `reusePlans` as app.ts sets it for the database (PostgreSQL: true).
 */
export function workOf(
  path: string,
  sessions: VariedSessions,
  email: string,
  reusePlans = false,
): ((db: Db) => Promise<unknown>) | null {
  const url = new URL(path, 'http://bench')
  // As the route's validation does: numbers from the query string, then the schema's defaults.
  const raw = Object.fromEntries(url.searchParams.entries())
  const params: Record<string, unknown> = Object.fromEntries(
    Object.entries(raw).map(([k, v]) => [k, ['page', 'pageSize', 'limit'].includes(k) ? Number(v) : v]),
  )
  const viewer = viewerOf(sessions, email)
  if (url.pathname === '/api/dispatches') {
    const query = Value.Default(DispatchListQuerySchema, params) as DispatchListQuery
    return (db) => dispatchesServiceOf(db, { cache: false, reusePlans }).list(viewer, query)
  }
  const report = /^\/api\/reports\/dispatch\/([^/]+)$/.exec(url.pathname)
  if (report) {
    const query = Value.Default(ReportQuerySchema, params) as ReportQuery
    return (db) =>
      reportsServiceOf(db, dispatchesServiceOf(db, { cache: false, reusePlans }), {
        cache: false,
      }).dispatchReport(viewer, decodeURIComponent(report[1]!), query)
  }
  if (url.pathname === '/api/learners') {
    const query = Value.Default(LearnerListQuerySchema, params) as LearnerListQuery
    return (db) => learnersServiceOf(db, { error() {} }, { cache: false }).list(viewer, query)
  }
  if (url.pathname === '/api/logs') {
    const query = Value.Default(LogListQuerySchema, params) as LogListQuery
    return (db) => logsServiceOf(db, { error() {} }).list(query, { actor: null, ip: '127.0.0.1' })
  }
  return null
}

/** EXPLAIN (ANALYZE, BUFFERS) of the slowest requests of each row, as the server of `database` runs them. */
export async function explainSlowest(
  rows: VariedRowResult[],
  sessions: VariedSessions,
  target: SqlTarget,
  database: 'postgres' | 'pglite',
  progress: (line: string) => void,
): Promise<void> {
  for (const row of rows) {
    if (row.postbacksPerSecond || row.connections > 50) continue
    row.plans = []
    for (const slow of row.slowest.slice(0, 3)) {
      const work = workOf(slow.path, sessions, slow.user, database === 'postgres')
      if (!work) continue
      const statements = await explainWork(target, work)
      row.plans.push({ path: slow.path, user: slow.user, statements: statements.map(({ params: _p, ...s }) => s) })
    }
    const seq = row.plans.flatMap((p) => p.statements.flatMap((s) => s.seqScans))
    progress(
      `  plans of ${row.label}: ${row.plans.length} requests, sequential scans: ${[...new Set(seq)].join(', ') || 'none'}`,
    )
  }
}
