/**
 * The database's share of an endpoint: the very statements the endpoint runs, captured by
 * calling the server's own services and repositories on a Drizzle instance with a logging hook
 * (nothing copied from the repositories, so the baseline follows their code), then replayed as
 * plain SQL (pg or PGlite, no ORM mapping) in the service's order (parallel where the service
 * uses Promise.all), with the same concurrency through a pool the size of the server's.
 */
import type { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { SESSION_OPTIONS, drizzleDb, prepareStatements, type Db } from '../apps/server/src/db/client'
import { sessionUser } from '../apps/server/src/db/session-user'
import { decodeJwt } from 'jose'
import { startCpuShare } from './cpu-share'
import { percentile } from './measure'

export interface Statement {
  text: string
  params: unknown[]
}

/** Runs one statement; the result is read to the end and dropped. */
export type Executor = (statement: Statement) => Promise<unknown>

export interface SqlTarget {
  /** A Drizzle instance that records every statement instead of caring about results. */
  capturingDb(record: (statement: Statement) => void): Db
  execute: Executor
  /** EXPLAIN (ANALYZE, BUFFERS) of one statement: the plan's lines. */
  explain(statement: Statement): Promise<string[]>
  close(): Promise<void>
}

const EXPLAIN = 'explain (analyze, buffers) '

/** The server's pool size (db/client.ts createPostgres default). */
export const SERVER_POOL_SIZE = 10

export function postgresTarget(url: string): SqlTarget {
  // The server's session settings, so the plans are the server's.
  const pool = new pg.Pool({ connectionString: url, max: SERVER_POOL_SIZE, options: SESSION_OPTIONS })
  // Statements prepared per connection, as the server's pool does.
  pool.on('connect', prepareStatements)
  return {
    capturingDb: (record) => drizzleDb(pool, { logQuery: (text, params) => record({ text, params }) }),
    execute: (s) => pool.query(s.text, s.params),
    explain: async (s) =>
      (await pool.query<{ 'QUERY PLAN': string }>(EXPLAIN + s.text, s.params)).rows.map((r) => r['QUERY PLAN']),
    close: () => pool.end(),
  }
}

export function pgliteTarget(db: PGlite): SqlTarget {
  return {
    capturingDb: (record) => drizzleDb(db, { logQuery: (text, params) => record({ text, params }) }),
    execute: (s) => db.query(s.text, s.params),
    explain: async (s) =>
      (await db.query<{ 'QUERY PLAN': string }>(EXPLAIN + s.text, s.params)).rows.map((r) => r['QUERY PLAN']),
    close: async () => {},
  }
}

/** The per-request session check of plugins/app/auth.ts: every endpoint below runs it first. */
export async function sessionCheck(db: Db, accessToken: string): Promise<unknown> {
  // The claims only: the token may have expired by the time the baselines run (PGlite runs them last).
  const claims = decodeJwt(accessToken) as { sub: string; sid: string; ver: number }
  return sessionUser(db, claims)
}

/**
 * Runs `work` against a capturing instance and splits what it issued into sequential steps of
 * the given sizes (statements of one step ran together, under Promise.all). The work runs once
 * unrecorded first, so what is recorded is the steady state a running server is in: the
 * aggregates the services cache per data version are already cached.
 */
export async function captureSteps(
  target: SqlTarget,
  steps: number[],
  work: (db: Db) => Promise<unknown>,
): Promise<Statement[][]> {
  const statements: Statement[] = []
  let recording = false
  const db = target.capturingDb((s) => {
    if (recording) statements.push(s)
  })
  await work(db)
  recording = true
  await work(db)
  const expected = steps.reduce((a, b) => a + b, 0)
  if (statements.length !== expected) {
    throw new Error(
      `expected ${expected} statements, captured ${statements.length}: the service changed, update its steps in bench/scenarios.ts`,
    )
  }
  const out: Statement[][] = []
  let at = 0
  for (const size of steps) {
    out.push(statements.slice(at, at + size))
    at += size
  }
  return out
}

export interface SqlResult {
  concurrency: number
  iterations: number
  seconds: number
  rps: number
  p50: number
  p95: number
  p99: number
  otherCores: number
}

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits

/** `iterations` runs of the steps by `concurrency` workers, stopping early at `maxSeconds`. */
export async function timeSteps(
  execute: Executor,
  steps: Statement[][],
  options: { iterations: number; concurrency: number; maxSeconds: number; warmupIterations?: number },
): Promise<SqlResult> {
  const once = async () => {
    for (const step of steps) await Promise.all(step.map(execute))
  }
  for (let i = 0; i < (options.warmupIterations ?? 20); i += 1) await once()
  const latencies: number[] = []
  const share = startCpuShare()
  let issued = 0
  const started = performance.now()
  const deadline = started + options.maxSeconds * 1000
  const worker = async () => {
    while (issued < options.iterations && performance.now() < deadline) {
      issued += 1
      const t = performance.now()
      await once()
      latencies.push(performance.now() - t)
    }
  }
  await Promise.all(Array.from({ length: options.concurrency }, worker))
  const seconds = (performance.now() - started) / 1000
  const sorted = Float64Array.from(latencies).sort()
  return {
    concurrency: options.concurrency,
    iterations: latencies.length,
    seconds: round(seconds, 2),
    rps: round(latencies.length / seconds, 0),
    p50: round(percentile(sorted, 50), 2),
    p95: round(percentile(sorted, 95), 2),
    p99: round(percentile(sorted, 99), 2),
    otherCores: share.stop().otherCores,
  }
}
