/**
 * Everything the bench can be told through the environment, in one place, with the bounds that
 * keep a whole run within 25 minutes on the 2-core reference machine (docs/performance.md).
 */
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
export const RESULTS_DIR = path.join(ROOT, 'bench', 'results')
export const DOC_FILE = path.join(ROOT, 'docs', 'performance.md')
/** The full tables of the last run (docs/performance.md carries their summary). */
export const LATEST_FILE = path.join(RESULTS_DIR, 'latest.md')

const num = (name: string, fallback: number): number => {
  const raw = process.env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, got "${raw}"`)
  return value
}

/** The server under test is told the admin URL; the bench database is always this name. */
export const BENCH_DB_NAME = 'portal_bench'
export const ADMIN_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres'

/** Same database server, database `portal_bench` (dropped and created afresh each run). */
export function benchDatabaseUrl(): string {
  const url = new URL(ADMIN_URL)
  url.pathname = `/${BENCH_DB_NAME}`
  return url.toString()
}

export const settings = {
  /** Simulator items per list page: SCORM Cloud chooses its own and it is unconfirmed (docs/scorm-cloud-api.md §2). */
  simPageSize: num('BENCH_SIM_PAGE_SIZE', 100),
  simSeed: num('BENCH_SIM_SEED', 2026),
  logRows: num('BENCH_LOG_ROWS', 2_000_000),
  /**
   * Activity log rows added to the PGlite demo data before its rows run: the demo starts with an
   * empty log, which the logs row would otherwise read. About a year of a small team's use.
   */
  pgliteLogRows: num('BENCH_PGLITE_LOG_ROWS', 50_000),
  /** Seconds of warm-up and of measurement per row; each row also stops after maxRequests. */
  warmupSeconds: num('BENCH_WARMUP_SECONDS', 2),
  durationSeconds: num('BENCH_DURATION_SECONDS', 6),
  /**
   * Pause between a row's warm-up and its measurement. autocannon leaves the requests it has in
   * flight when its time is up, and the server still runs them: without the pause a 50-connection
   * row starts measuring with up to 100 requests on the server, and the pool's bounded queue
   * (DATABASE_QUEUE_LIMIT, 64) refuses some (14 of 6,700 in the staff row of 2026-11-27 09:24).
   */
  drainMs: num('BENCH_DRAIN_MS', 1000),
  maxRequests: num('BENCH_MAX_REQUESTS', 20_000),
  /** Sign-in rows are few and slow (argon2): a shorter window. */
  loginSeconds: num('BENCH_LOGIN_SECONDS', 5),
  exportRows: num('BENCH_EXPORT_ROWS', 1_000_000),
  /**
   * DATABASE_POOL_SIZE of the server under test on PostgreSQL: three connections per core of the
   * database's host (the bench's own machine), as the README recommends; the server's default
   * (10) is for a database whose cores are unknown. docs/performance.md, "Pool size and overload".
   */
  poolSize: num('BENCH_POOL_SIZE', 3 * os.cpus().length),
  /** 0 skips the PGlite part (demo data, as `npm start` runs it: bench/run.ts pglitePart). */
  pglite: process.env.BENCH_PGLITE !== '0',
  /** 0 skips the PostgreSQL part (PGlite alone, results JSON only: docs/performance.md is kept). */
  postgres: process.env.BENCH_POSTGRES !== '0',
  /** LOG_LEVEL of the server under test: its default (info) logs every request, as in production. */
  serverLogLevel: process.env.BENCH_SERVER_LOG_LEVEL || 'info',
  /** A folder: each server under test writes a V8 CPU profile there when it stops (where a request's CPU goes). */
  serverProfileDir: process.env.BENCH_SERVER_PROFILE || null,
  /**
   * 1: keep portal_bench as the last run left it (no sync, no log seeding; the server's start
   * migrates it), to measure the reads again quickly. The sync rows are then not measured.
   */
  reuse: process.env.BENCH_REUSE === '1',
  /**
   * The whole run aborts past this, whatever it is doing: a stop for a run that hangs, not a
   * target. 60: on the slower machine of 2026-11-26 the full sync alone took 21 minutes, and a
   * fresh run stopped at 25 before its first read row.
   */
  hardLimitMinutes: num('BENCH_HARD_LIMIT_MINUTES', 60),
} as const

/** Fixed so the sync worker, the server and the token-minting helpers agree. */
export const JWT_SECRET = 'bench-jwt-secret-long-enough-for-hs256-signing-0123456789'
export const BENCH_PASSWORD = 'bench-portal-pass-7Qx'
export const ADMIN_EMAIL = 'bench-admin@bench.local'
/** The webhook's credentials on the server under test (run-server.ts). */
export const POSTBACK_USER = 'scorm-cloud'
export const POSTBACK_PASSWORD = 'bench-postback-password'
export const CLIENT_EMAIL = 'bench-client@bench.local'
