import { SYNC_KINDS, type SyncKind, type SyncStatusResponse, type SyncTrigger } from '@portal/shared'
import type { Database, HeldLock } from '../../db/client'
import { analyzeStaleTables } from '../../db/statistics'
import { AppError } from '../../lib/app-error'
import type { ScormCloudClient } from '../scorm-cloud/scorm-cloud.client'
import { ScormCloudError } from '../scorm-cloud/scorm-cloud.errors'
import { PAGE_RETRY, type PageRetry } from './page-retry'
import { describeTiming, runKind, type KindResult, type SyncRepositories } from './sync-kind-run'
import { createKindHandlers } from './sync.kinds'
import { FULL_RUN_CURSOR } from './sync-run.repository'

export { CURSOR_OVERLAP_MS, type KindResult, type SyncRepositories } from './sync-kind-run'

/** Any fixed number, shared by every server process: one sync at a time across the cluster. */
export const SYNC_LOCK_KEY = 7_210_002
export const FULL_RUN_EVERY_MS = 24 * 60 * 60_000
export const SYNC_BUSY_MESSAGE = 'A sync is already running.'
export const SYNC_STOPPED_MESSAGE = 'The sync stopped: the server is shutting down.'
export const SYNC_LOCK_LOST_MESSAGE =
  'The sync stopped: the database connection holding its lock was lost. The next run resumes where it stopped.'

export interface SyncOutcome {
  ok: boolean
  results: KindResult[]
}

export interface SyncRequest {
  trigger: SyncTrigger
  kinds?: readonly SyncKind[]
  /** Ignore the cursors: read everything and check what is gone upstream. Kinds without a cursor run full anyway. */
  full?: boolean
}

interface Logger {
  info(obj: object, msg?: string): void
  warn(obj: object, msg?: string): void
  error(obj: object, msg?: string): void
}
const silent: Logger = { info() {}, warn() {}, error() {} }

export interface SyncServiceOptions {
  database: Database
  /** Built in app.ts (tests: syncRepositories in sync.test-support.ts). */
  repositories: SyncRepositories
  client: ScormCloudClient
  log?: Logger
  now?: () => Date
  /** The retry budget of one listing page (page-retry.ts); tests shorten the wait. */
  pageRetry?: Partial<PageRetry>
  /** Keeps the planner statistics of the growing mirror current (db/statistics.ts); tests watch it. */
  analyzeStatistics?: (db: Database['db']) => Promise<unknown>
}

const zero = () => ({ created: 0, updated: 0, skipped: 0, errors: 0 })

/**
 * The mirror sync (docs/architecture.md "Mirror and sync"): courses, destinations, dispatches and
 * dispatch registrations copied page by page, one transaction per page, idempotently, one run
 * at a time across all processes, each run recorded in sync_run (sync-kind-run.ts).
 */
export function createSyncService({
  database,
  repositories,
  client,
  log = silent,
  now = () => new Date(),
  pageRetry = {},
  analyzeStatistics = analyzeStaleTables,
}: SyncServiceOptions) {
  const { db } = database
  const { mirror, runs } = repositories
  const handlers = createKindHandlers(mirror)
  const retry: PageRetry = { ...PAGE_RETRY, ...pageRetry }
  let current: { kinds: ReadonlySet<SyncKind>; full: boolean; promise: Promise<SyncOutcome> } | null = null
  let stopping = false
  /** Told when a run ends (the alert evaluation); never awaited, never allowed to throw. */
  const finishedListeners: ((outcome: SyncOutcome) => void)[] = []

  /** What a kind checks between pages: shutdown, and the lock's connection. */
  const depsFor = (lock: HeldLock) => ({
    db,
    repositories,
    handlers,
    client,
    retry,
    now,
    analyzeStatistics,
    stopped: () => stopping || lock.lost() !== null,
    check() {
      // 503 when a route started the run: the database or the server, not the request, is at fault.
      if (stopping) throw new AppError('NOT_READY', SYNC_STOPPED_MESSAGE)
      // PostgreSQL dropped the lock with its session: another process may be syncing now.
      if (lock.lost()) throw new AppError('NOT_READY', SYNC_LOCK_LOST_MESSAGE, { retryAfterSeconds: 5 })
    },
    logError: (err: unknown, kind: SyncKind) => log.error({ err, kind }, 'sync failed'),
  })

  async function execute(kinds: readonly SyncKind[], request: SyncRequest): Promise<SyncOutcome> {
    const lock = await database.tryLock(SYNC_LOCK_KEY)
    if (!lock) throw new AppError('CONFLICT', SYNC_BUSY_MESSAGE)
    const deps = depsFor(lock)
    try {
      await runs.failAbandoned()
      // Every kind's cursor is the run's start: anything changed after it is read next time.
      const runStart = now()
      const results: KindResult[] = []
      for (const kind of SYNC_KINDS.filter((k) => kinds.includes(k))) {
        const dispatchesFailed = results.some((r) => r.kind === 'dispatches' && r.status === 'failed')
        if (kind === 'registrations' && dispatchesFailed) {
          // Registrations of dispatches the mirror missed would be skipped and the cursor moved past them.
          const runId = await runs.start(kind, request.trigger, now())
          const message = 'Not run: the dispatch sync failed.'
          await runs.finish(runId, 'failed', zero(), message)
          results.push({ kind, status: 'failed', ...zero(), message })
          continue
        }
        const since = request.full ? null : await runs.getCursor(kind)
        const result = await runKind(deps, kind, request.trigger, since, runStart)
        // In the database, so the status screen says the same on every node.
        if (result.status === 'succeeded') await runs.setProviderError(null)
        else if (result.error instanceof ScormCloudError) await runs.setProviderError(result.message)
        results.push(result)
      }
      const ok = results.every((r) => r.status === 'succeeded')
      const allFull = results.every((r) => r.full)
      if (ok && allFull && SYNC_KINDS.every((k) => kinds.includes(k))) {
        await runs.setCursor(FULL_RUN_CURSOR, runStart)
      }
      const split = results.flatMap((r) => (r.timing ? [describeTiming(r.kind, r.timing)] : []))
      log.info({ trigger: request.trigger, results: results.map(({ error: _e, ...r }) => r), split }, 'sync finished')
      const outcome = { ok, results }
      for (const listener of finishedListeners) {
        try {
          listener(outcome)
        } catch (err) {
          log.error({ err }, 'sync listener failed')
        }
      }
      return outcome
    } finally {
      // Never throws: on a lost connection PostgreSQL has already dropped the lock.
      await lock.release()
    }
  }

  /**
   * Runs a sync, or joins the one in flight in this process when it covers the request (two
   * syncs started together run once). Throws CONFLICT when another process holds the lock.
   */
  async function run(request: SyncRequest): Promise<SyncOutcome> {
    const kinds = request.kinds ?? SYNC_KINDS
    const full = request.full ?? false
    while (current) {
      const inFlight = current
      if (kinds.every((k) => inFlight.kinds.has(k)) && (inFlight.full || !full)) return inFlight.promise
      await inFlight.promise.catch(() => undefined)
    }
    if (stopping) throw new AppError('NOT_READY', 'The server is shutting down.')
    const promise = execute(kinds, request).finally(() => {
      current = null
    })
    current = { kinds: new Set(kinds), full, promise }
    return promise
  }

  async function runOne(kind: SyncKind, trigger: SyncTrigger): Promise<KindResult> {
    const outcome = await run({ kinds: [kind], trigger, full: true })
    return outcome.results.find((r) => r.kind === kind)!
  }

  return {
    run,
    /** A listener for the end of every run in this process (what it wrote is committed). */
    onFinished(listener: (outcome: SyncOutcome) => void) {
      finishedListeners.push(listener)
    },
    /** Full courses sync (the Sync Courses button). */
    syncCourses: (trigger: SyncTrigger = 'manual') => runOne('courses', trigger),
    /** Full destinations → companies sync (the companies screen's sync button). */
    syncCompanies: (trigger: SyncTrigger = 'manual') => runOne('destinations', trigger),

    /** True when no complete full run started within the last 24 hours (shared by all processes). */
    async fullRunDue(): Promise<boolean> {
      const last = await runs.getCursor(FULL_RUN_CURSOR)
      return !last || now().getTime() - last.getTime() >= FULL_RUN_EVERY_MS
    },

    courseCount: () => mirror.countCourses(),

    /** For GET /api/admin/sync/status: never calls SCORM Cloud. */
    async status(): Promise<SyncStatusResponse> {
      const last = await runs.lastRuns()
      const lastOk = await runs.lastSuccessAt()
      const circuit = client.breaker.state
      const lastProviderError = await runs.providerError()
      return {
        runs: {
          courses: last.courses ?? null,
          destinations: last.destinations ?? null,
          dispatches: last.dispatches ?? null,
          registrations: last.registrations ?? null,
        },
        scormCloud: {
          reachable: circuit === 'closed' && lastProviderError === null,
          circuit,
          lastError: lastProviderError,
        },
        lastSuccessfulSyncAt: lastOk ? lastOk.toISOString() : null,
      }
    },

    /** Stops at the next page boundary and waits for the run in flight (app close). */
    async close(): Promise<void> {
      stopping = true
      await current?.promise.catch(() => undefined)
    },
  }
}
export type SyncService = ReturnType<typeof createSyncService>

/** A failed kind as the error a route answers with: the provider's 502, or our own error. */
export function failureOf(result: KindResult): unknown {
  if (result.error instanceof ScormCloudError) return result.error
  return result.error ?? new AppError('UPSTREAM_FAILED', result.message ?? undefined)
}
