import { SYNC_KINDS, type SyncCounts, type SyncKind, type SyncStatusResponse, type SyncTrigger } from '@portal/shared'
import { sql } from 'drizzle-orm'
import type { Database } from '../../db/client'
import { AppError } from '../../lib/app-error'
import type { ScormCloudClient } from '../scorm-cloud/scorm-cloud.client'
import { ScormCloudError } from '../scorm-cloud/scorm-cloud.errors'
import { prefetch } from './prefetch'
import { KIND_HANDLERS } from './sync.kinds'
import { syncRepository } from './sync.repository'
import { FULL_RUN_CURSOR, syncRunRepository as runs } from './sync-run.repository'

/** Any fixed number, shared by every server process: one sync at a time across the cluster. */
export const SYNC_LOCK_KEY = 7_210_002
/** Re-read this much before the cursor: clock skew and the provider's asynchronous rollup. */
export const CURSOR_OVERLAP_MS = 5 * 60_000
export const FULL_RUN_EVERY_MS = 24 * 60 * 60_000
export const SYNC_BUSY_MESSAGE = 'A sync is already running.'

export interface KindResult extends SyncCounts {
  kind: SyncKind
  status: 'succeeded' | 'failed'
  message: string | null
  /** Why it failed: a ScormCloudError for the provider, anything else for us. */
  error?: unknown
}

export interface SyncOutcome {
  ok: boolean
  results: KindResult[]
}

export interface SyncRequest {
  trigger: SyncTrigger
  kinds?: readonly SyncKind[]
  /** Ignore the cursors: read everything and mark what is gone upstream. Kinds without a cursor run full anyway. */
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
  client: ScormCloudClient
  log?: Logger
  now?: () => Date
}

const zero = (): SyncCounts => ({ created: 0, updated: 0, skipped: 0, errors: 0 })
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

/**
 * The mirror sync (ARCHITECTURE.md "Mirror and sync"): courses, destinations, dispatches and
 * dispatch registrations copied page by page, one transaction per page, idempotently, one run
 * at a time across all processes, each run recorded in sync_run.
 */
export function createSyncService({ database, client, log = silent, now = () => new Date() }: SyncServiceOptions) {
  const { db } = database
  let current: { kinds: ReadonlySet<SyncKind>; full: boolean; promise: Promise<SyncOutcome> } | null = null
  let stopping = false
  /** The provider's message from this process's last sync, cleared by the next success. */
  let lastProviderError: string | null = null

  async function runKind(kind: SyncKind, trigger: SyncTrigger, since: Date | null, runStart: Date) {
    const handler = KIND_HANDLERS[kind]
    const runId = await runs.start(db, kind, trigger, now())
    const counts = zero()
    let orphans = 0
    const seen = since === null && handler.removable ? new Set<string>() : null
    try {
      const window = since
        ? { since: new Date(since.getTime() - CURSOR_OVERLAP_MS), datetimeFilter: 'updated' as const }
        : {}
      const stopped = () => new Error('The sync stopped: the server is shutting down.')
      if (stopping) throw stopped()
      for await (const items of prefetch(handler.list(client, window))) {
        if (stopping) throw stopped()
        // One transaction per page keeps memory and lock time bounded however big the account.
        // Its commit need not wait for the disk: the run's last transaction (cursor and run row)
        // commits synchronously, which flushes the WAL of every page before it; a crash before
        // that loses pages the next run, starting from the old cursor, writes again (issue #7).
        const page = await db.transaction(async (tx) => {
          await tx.execute(sql`set local synchronous_commit = off`)
          return handler.write(tx, items, client)
        })
        counts.created += page.created
        counts.updated += page.updated
        counts.skipped += page.skipped
        counts.errors += page.errors
        orphans += page.orphans
        if (seen) for (const id of page.ids) seen.add(id)
      }
      const notes: string[] = []
      if (orphans > 0) notes.push(`${orphans} registration(s) of dispatches not in the mirror were skipped.`)
      await db.transaction(async (tx) => {
        // Only after a complete listing: a partial one would "remove" everything not reached.
        if (seen && kind !== 'registrations') {
          const removed = await syncRepository.markRemoved(tx, kind, seen)
          counts.updated += removed
          if (removed > 0) notes.push(`${removed} marked removed upstream.`)
        }
        // The cursor moves only once every page above has committed.
        await runs.setCursor(tx, kind, runStart)
        await runs.finish(tx, runId, 'succeeded', counts, notes.join(' ') || null)
      })
      lastProviderError = null
      return { kind, status: 'succeeded', ...counts, message: notes.join(' ') || null } satisfies KindResult
    } catch (error) {
      const message = messageOf(error)
      if (error instanceof ScormCloudError) lastProviderError = message
      else log.error({ err: error, kind }, 'sync failed')
      await runs.finish(db, runId, 'failed', counts, message).catch((err: unknown) => {
        log.error({ err, kind }, 'could not record the failed sync run')
      })
      return { kind, status: 'failed', ...counts, message, error } satisfies KindResult
    }
  }

  async function execute(kinds: readonly SyncKind[], request: SyncRequest): Promise<SyncOutcome> {
    const release = await database.tryLock(SYNC_LOCK_KEY)
    if (!release) throw new AppError('CONFLICT', SYNC_BUSY_MESSAGE)
    try {
      await runs.failAbandoned(db)
      // Every kind's cursor is the run's start: anything changed after it is read next time.
      const runStart = now()
      const results: KindResult[] = []
      let allFull = true
      for (const kind of SYNC_KINDS.filter((k) => kinds.includes(k))) {
        const dispatchesFailed = results.some((r) => r.kind === 'dispatches' && r.status === 'failed')
        if (kind === 'registrations' && dispatchesFailed) {
          // Registrations of dispatches the mirror missed would be skipped and the cursor moved past them.
          const runId = await runs.start(db, kind, request.trigger, now())
          const message = 'Not run: the dispatch sync failed.'
          await runs.finish(db, runId, 'failed', zero(), message)
          results.push({ kind, status: 'failed', ...zero(), message })
          continue
        }
        const since = request.full ? null : await runs.getCursor(db, kind)
        if (since) allFull = false
        results.push(await runKind(kind, request.trigger, since, runStart))
      }
      const ok = results.every((r) => r.status === 'succeeded')
      if (ok && allFull && SYNC_KINDS.every((k) => kinds.includes(k))) {
        await runs.setCursor(db, FULL_RUN_CURSOR, runStart)
      }
      log.info({ trigger: request.trigger, results: results.map(({ error: _e, ...r }) => r) }, 'sync finished')
      return { ok, results }
    } finally {
      await release()
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
    /** Full courses sync (the Sync Courses button). */
    syncCourses: (trigger: SyncTrigger = 'manual') => runOne('courses', trigger),
    /** Full destinations → companies sync (the companies screen's sync button). */
    syncCompanies: (trigger: SyncTrigger = 'manual') => runOne('destinations', trigger),

    /** True when no complete full run started within the last 24 hours (shared by all processes). */
    async fullRunDue(): Promise<boolean> {
      const last = await runs.getCursor(db, FULL_RUN_CURSOR)
      return !last || now().getTime() - last.getTime() >= FULL_RUN_EVERY_MS
    },

    courseCount: () => syncRepository.countCourses(db),

    /** For GET /api/admin/sync/status: never calls SCORM Cloud. */
    async status(): Promise<SyncStatusResponse> {
      const last = await runs.lastRuns(db)
      const lastOk = await runs.lastSuccessAt(db)
      const circuit = client.breaker.state
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
