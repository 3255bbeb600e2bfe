import type { SyncCounts, SyncKind, SyncTrigger } from '@portal/shared'
import type { Db } from '../../db/client'
import type { ListPage, ListWindow, ScormCloudClient } from '../scorm-cloud/scorm-cloud.client'
import { ScormCloudError } from '../scorm-cloud/scorm-cloud.errors'
import { withPageRetries, type PageRetry } from './page-retry'
import { prefetch } from './prefetch'
import { refreshCounters } from './sync-counters'
import type { KindHandlers, PageResult } from './sync.kinds'
import type { Checkpoint, RemovableKind, SyncProgressRepository } from './sync-progress.repository'
import { buildDeferredAggregates, moveStagedRegistrations } from './sync-learners'
import { reconcileRemovals, type ReconcileOutcome } from './sync-reconcile'
import { settleUnseen } from './sync-removal'
import type { SyncRunRepository } from './sync-run.repository'
import type { SyncRepository } from './sync.repository'

/** Re-read this much before the cursor: clock skew and the provider's asynchronous rollup. */
export const CURSOR_OVERLAP_MS = 5 * 60_000

export interface KindResult extends SyncCounts {
  kind: SyncKind
  status: 'succeeded' | 'failed'
  message: string | null
  /** Why it failed: a ScormCloudError for the provider, anything else for us. */
  error?: unknown
  /** Whether this run's listing of the kind was a full one (resumed or not). */
  full?: boolean
  /** Where the run's time went (also in its sync_run row): see KindTiming. */
  timing?: KindTiming
}

/**
 * A kind's run time split by what it waited on, in milliseconds: the provider's listing pages
 * (time the writer had no page to write: the next one downloads while a page is written), the
 * page writes, the deferred aggregate builds and the planner statistics. The rest of `totalMs`
 * is the run's bookkeeping and its end (the removal, counter and deletion checks).
 */
export interface KindTiming {
  totalMs: number
  providerWaitMs: number
  /** pagesMs + buildMs + statisticsMs. */
  writeMs: number
  pagesMs: number
  buildMs: number
  statisticsMs: number
}

/** The sync's three repositories, built in app.ts: the mirror writes, the run rows and cursors, the progress. */
export interface SyncRepositories {
  mirror: SyncRepository
  runs: SyncRunRepository
  progress: SyncProgressRepository
}

export interface KindRunDeps {
  db: Db
  repositories: SyncRepositories
  /** How each kind is listed and written (sync.kinds.ts), over the mirror repository. */
  handlers: KindHandlers
  client: ScormCloudClient
  retry: PageRetry
  now: () => Date
  /** db/statistics.ts analyzeStaleTables, handed in by the sync service. */
  analyzeStatistics: (db: Db) => Promise<unknown>
  /** Throws when the run must stop: the server is shutting down, or the sync lock was lost. */
  check: () => void
  /** True once check() would throw (no new provider calls are started). */
  stopped: () => boolean
  logError: (error: unknown, kind: SyncKind) => void
}

/** One line for the run's log: where a kind's time went, in seconds and shares of its run. */
export function describeTiming(kind: SyncKind, t: KindTiming): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`
  const share = (ms: number) => `${t.totalMs > 0 ? Math.round((100 * ms) / t.totalMs) : 0} %`
  return (
    `${kind}: ${s(t.totalMs)}, waiting for the provider ${s(t.providerWaitMs)} (${share(t.providerWaitMs)}), ` +
    `writing ${s(t.writeMs)} (${share(t.writeMs)}: pages ${s(t.pagesMs)}, aggregate builds ${s(t.buildMs)}, ` +
    `statistics ${s(t.statisticsMs)})`
  )
}

/** Pages between two checks of the planner statistics (db/statistics.ts). */
export const STATISTICS_EVERY_PAGES = 10

/**
 * Pages read ahead of the writer, and so the most written in one transaction: a page's fixed
 * costs (its transaction, the checkpoint, each statement trigger of the mirror tables) are paid
 * once per batch, and a batch of 100-item pages still fits one statement of the upserts.
 */
export const PAGES_PER_WRITE = 10

const zero = (): SyncCounts => ({ created: 0, updated: 0, skipped: 0, errors: 0 })
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const add = (counts: SyncCounts, page: PageResult) => {
  counts.created += page.created
  counts.updated += page.updated
  counts.skipped += page.skipped
  counts.errors += page.errors
}
/** A saved `more` token the provider refuses (expired, say): the listing starts again. */
const refusedToken = (error: unknown) =>
  error instanceof ScormCloudError &&
  error.providerStatus >= 400 &&
  error.providerStatus < 500 &&
  error.providerStatus !== 429

/**
 * One kind of one run (docs/architecture.md "Mirror and sync"), recorded in sync_run. The
 * listing keeps a checkpoint per page (the provider's `more` token, saved in the page's
 * transaction), so a run that fails, on a flaky provider or a lost database connection, is
 * resumed by the next one where it stopped; each page has a retry budget of its own; a full
 * listing removes nothing by itself (sync-removal.ts); an incremental dispatch listing is
 * followed by the counter check (sync-counters.ts); an incremental listing of a kind that can be
 * deleted upstream is followed by the check for deletions (sync-reconcile.ts). The cursor moves
 * once the listing is done.
 */
export async function runKind(
  deps: KindRunDeps,
  kind: SyncKind,
  trigger: SyncTrigger,
  since: Date | null,
  runStart: Date,
): Promise<KindResult> {
  const { db, client } = deps
  const { mirror, runs, progress } = deps.repositories
  const handler = deps.handlers[kind]
  const removable = handler.fetchOne ? (kind as RemovableKind) : null
  const runId = await runs.start(kind, trigger, deps.now())
  const counts = zero()
  const notes: string[] = []
  let orphans = 0
  let renamed = 0
  let full = since === null
  const began = performance.now()
  const spent = { providerWaitMs: 0, pagesMs: 0, buildMs: 0, statisticsMs: 0 }
  const timed = async <T>(part: keyof typeof spent, work: () => Promise<T>): Promise<T> => {
    const at = performance.now()
    try {
      return await work()
    } finally {
      spent[part] += performance.now() - at
    }
  }
  const timing = (): KindTiming => {
    const ms = (n: number) => Math.round(n)
    const writeMs = spent.pagesMs + spent.buildMs + spent.statisticsMs
    return {
      totalMs: ms(performance.now() - began),
      providerWaitMs: ms(spent.providerWaitMs),
      writeMs: ms(writeMs),
      pagesMs: ms(spent.pagesMs),
      buildMs: ms(spent.buildMs),
      statisticsMs: ms(spent.statisticsMs),
    }
  }
  const stats = () => timed('statisticsMs', () => keepStatistics(deps, kind))
  try {
    deps.check()
    let checkpoint = await progress.getCheckpoint(kind)
    // A full run was asked for: an incremental listing under way is a subset of it, dropped.
    if (checkpoint && full && checkpoint.since !== null) checkpoint = null
    const fresh = (): Checkpoint => ({ kind, since, listingStartedAt: runStart, nextPage: null, pages: 0 })
    let resumedFrom: string | null = null
    if (checkpoint) {
      full = checkpoint.since === null
      resumedFrom = checkpoint.nextPage
      notes.push(
        resumedFrom ? `Resumed at page ${checkpoint.pages + 1}.` : 'Resumed: every page was written, the end was left.',
      )
    } else {
      await progress.clearListing(kind)
      checkpoint = fresh()
    }
    // A first sync's registrations go to the staging table and move into the mirror in bulk
    // once listed (migration 0045); a resumed run goes on as the stopped one began.
    const staged = kind === 'registrations' && (await mirror.stagesRegistrations(full))

    if (!checkpoint.pages || resumedFrom) {
      let cp: Checkpoint = checkpoint
      const window = (): ListWindow =>
        cp.since ? { since: new Date(cp.since.getTime() - CURSOR_OVERLAP_MS), datetimeFilter: 'updated' } : {}
      async function* pages(more: string | null): AsyncGenerator<ListPage> {
        let next = more
        do {
          const page = await withPageRetries(
            () => handler.page(client, window(), next),
            client.breaker,
            deps.retry,
            deps.stopped,
          )
          yield page
          next = page.more
        } while (next)
      }
      /** The listing as the writer sees it: the time it waits for each batch is the provider's. */
      async function* waited(source: AsyncGenerator<ListPage[]>): AsyncGenerator<ListPage[]> {
        try {
          while (true) {
            const next = await timed('providerWaitMs', () => source.next())
            if (next.done) return
            yield next.value
          }
        } finally {
          // A writer that stops early closes the listing (prefetch awaits its read-ahead).
          await source.return(undefined as never)
        }
      }
      let written = 0
      for (let start = resumedFrom; ;) {
        try {
          for await (const batch of waited(prefetch(pages(start), PAGES_PER_WRITE))) {
            deps.check()
            // One transaction per batch of pages keeps memory and lock time bounded however big
            // the account, and commits the checkpoint of its last page with its rows. Its commit
            // need not wait for the disk: the kind's last transaction commits synchronously,
            // which flushes the WAL of every batch before it; a crash before that loses the
            // pages and their checkpoints together, and the next run reads them again.
            const result = await timed('pagesMs', () =>
              db.transaction(async (tx) => {
                await mirror.commitWithoutWaiting(tx)
                // A full registration listing: the aggregates of a dispatch or a company without
                // any yet are built at the end, in bulk (buildDeferredAggregates).
                if (kind === 'registrations' && full) await mirror.deferAggregates(tx)
                const r = await handler.write(
                  tx,
                  batch.flatMap((page) => page.items),
                  client,
                  { staged },
                )
                if (removable) {
                  if (full) await progress.addSeen(removable, r.ids, tx)
                  await progress.clearMissing(removable, r.ids, tx)
                }
                cp = { ...cp, nextPage: batch[batch.length - 1]!.more, pages: cp.pages + batch.length }
                await progress.saveCheckpoint(cp, tx)
                return r
              }),
            )
            const before = written
            written += batch.length
            if (Math.floor(written / STATISTICS_EVERY_PAGES) > Math.floor(before / STATISTICS_EVERY_PAGES)) {
              await stats()
            }
            add(counts, result)
            orphans += result.orphans
            renamed += result.renamed ?? 0
          }
          break
        } catch (error) {
          if (!(start && written === 0 && refusedToken(error))) throw error
          notes.push('The provider refused the saved page token: the listing started again.')
          await progress.clearListing(kind)
          cp = fresh()
          full = since === null
          start = null
        }
      }
      checkpoint = cp
    }

    if (kind === 'registrations') {
      // Full or not: staged rows or a build left by a run that stopped (a crash mid-build) are
      // moved or built by the next one. The move is the pages' write, done in bulk.
      await timed('pagesMs', () => moveStagedRegistrations(mirror, deps.stopped))
      deps.check()
      await timed('buildMs', () => buildDeferredAggregates(mirror, deps.stopped))
    }
    await stats()
    deps.check()
    if (orphans > 0) notes.push(`${orphans} registration(s) of dispatches not in the mirror were skipped.`)
    if (renamed > 0) notes.push(`${renamed} dispatch name(s) followed a rename.`)
    const settle = removable && full ? await settleUnseen(progress, client, removable, handler, deps.stopped) : null
    if (kind === 'dispatches' && !full) {
      const counters = await refreshCounters(deps)
      if (counters.updated > 0) notes.push(`${counters.updated} registration counter(s) refreshed.`)
    }
    const reconciled = removable && !full ? await checkDeletions(deps, removable, checkpoint, notes) : null
    deps.check()
    const done = checkpoint
    const final = await db.transaction(async (tx) => {
      // Copies: a rolled-back end leaves the counts of the failed run as they were.
      const total = { ...counts }
      const lines = [...notes]
      if (settle) {
        const settled = await settle(tx)
        total.updated += settled.removed
        if (settled.removed > 0) lines.push(`${settled.removed} marked removed upstream.`)
        if (settled.kept) {
          add(total, settled.kept)
          lines.push(`${settled.kept.ids.length} not listed but confirmed by the provider, kept.`)
        }
        if (settled.pending > 0) {
          lines.push(`${settled.pending} not listed and not confirmed: removed if the next full run misses them too.`)
        }
      }
      if (reconciled) {
        add(total, { ...reconciled, ids: [], orphans: 0 })
        total.updated += reconciled.removed
      }
      const message = lines.join(' ') || null
      // The cursor moves only once every page of the listing has committed.
      await runs.setCursor(kind, done.listingStartedAt, tx)
      await progress.clearListing(kind, tx)
      await runs.finish(runId, 'succeeded', total, message, tx, timing())
      return { ...total, message }
    })
    return { kind, status: 'succeeded', ...final, full, timing: timing() }
  } catch (error) {
    const message = messageOf(error)
    if (!(error instanceof ScormCloudError)) deps.logError(error, kind)
    await closeFailed(runs, runId, counts, message, deps.logError, kind, timing())
    return { kind, status: 'failed', ...counts, message, error, full, timing: timing() }
  }
}

/**
 * An incremental run's check for items deleted upstream (sync-reconcile.ts), up to the listing's
 * start less the overlap. A provider failure here leaves the run successful (its listing is
 * written and its cursor moves) with a note; nothing is removed and the next run checks again.
 */
async function checkDeletions(
  deps: KindRunDeps,
  kind: RemovableKind,
  checkpoint: Checkpoint,
  notes: string[],
): Promise<ReconcileOutcome | null> {
  if (deps.stopped()) return null
  const until = new Date(checkpoint.listingStartedAt.getTime() - CURSOR_OVERLAP_MS)
  try {
    const outcome = await reconcileRemovals(deps, kind, deps.handlers[kind], until)
    if (outcome.removed > 0) notes.push(`${outcome.removed} marked removed upstream.`)
    if (outcome.unfinished) notes.push('The check for items deleted upstream did not finish: the next run goes on.')
    return outcome
  } catch (error) {
    if (!(error instanceof ScormCloudError)) throw error
    notes.push(
      `The check for items deleted upstream stopped (${error.message}): nothing was removed, the next run checks again.`,
    )
    return null
  }
}

/**
 * A growing mirror keeps its planner statistics current whether or not autovacuum runs
 * (db/statistics.ts). Best effort: a failed ANALYZE is logged and the listing goes on.
 */
async function keepStatistics(deps: KindRunDeps, kind: SyncKind) {
  try {
    await deps.analyzeStatistics(deps.db)
  } catch (error) {
    deps.logError(error, kind)
  }
}

/**
 * The run row is closed even when the database just dropped a connection: the pool replaces
 * it, so a few tries a moment apart get through unless the database is really down (then the
 * next run's failAbandoned closes it).
 */
async function closeFailed(
  runs: SyncRunRepository,
  runId: number,
  counts: SyncCounts,
  message: string,
  logError: KindRunDeps['logError'],
  kind: SyncKind,
  timing: KindTiming,
) {
  for (let attempt = 1; ; attempt++) {
    try {
      await runs.finish(runId, 'failed', counts, message, undefined, timing)
      return
    } catch (error) {
      if (attempt >= 4) {
        logError(error, kind)
        return
      }
      await pause(250 * attempt)
    }
  }
}
