import type { SyncCounts } from '@portal/shared'
import type { ListWindow } from '../scorm-cloud/scorm-cloud.client'
import { eachLimit } from '../../lib/each-limit'
import { withPageRetries } from './page-retry'
import { CONFIRM_BUDGET } from './sync-removal'
import type { KindHandler, PageResult } from './sync.kinds'
import type { KindRunDeps } from './sync-kind-run'
import type { CreatedWindow, RemovableKind } from './sync-progress.repository'

/** Count calls (one list request each) a kind's check may make in one run, the first included. */
export const RECONCILE_COUNT_BUDGET = 32
/** A window holding at most this many mirror rows is listed outright instead of being split. */
export const RECONCILE_LEAF_ROWS = 250
const CONCURRENCY = 4

export interface ReconcileOutcome extends SyncCounts {
  /** Marked removed: in the mirror, missing from their window's listing, and a 404 on their own GET. */
  removed: number
  /** Provider requests made (counts, listing pages, single GETs). */
  calls: number
  /** Windows or items left unchecked (budget spent, stopped, a GET without answer): the next run looks again. */
  unfinished: boolean
}

const listWindow = (w: CreatedWindow): ListWindow => ({ since: w.since, until: w.until, datetimeFilter: 'created' })

/**
 * SCORM Cloud's lists never return deleted items, so an incremental listing (by `updated`) cannot
 * see a deletion; before this check only the daily full run found it. After each incremental
 * listing of courses, destinations and dispatches, the provider's count of the items created up
 * to `until` (the list's X-Total-Count, one request) is compared with the mirror's live rows
 * created in the same window. Equal, nothing was deleted: that one request is the whole cost.
 * Different: the window is halved at the mirror's median and the halves compared (one count
 * each; the right half's count is the parent's less the left's) until a window holds at most
 * RECONCILE_LEAF_ROWS mirror rows; such a window is listed (by `created`, so edits do not move
 * items out of it), its pages written like any page, and every mirror row it did not return is
 * asked for by its own GET. Only a 404 there marks a row removed: a listing that fails, stops or
 * skips items (a paged scan the provider reorders) removes nothing, it only costs GETs.
 * `until` stays behind the listing's start so that an item created while the listing ran, and
 * not mirrored yet, never counts as a difference.
 */
export async function reconcileRemovals(
  deps: Pick<KindRunDeps, 'db' | 'client' | 'retry' | 'stopped' | 'repositories'>,
  kind: RemovableKind,
  handler: KindHandler,
  until: Date,
): Promise<ReconcileOutcome> {
  const { db, client, retry, stopped } = deps
  const { mirror, progress } = deps.repositories
  const outcome: ReconcileOutcome = {
    created: 0,
    updated: 0,
    skipped: 0,
    errors: 0,
    removed: 0,
    calls: 0,
    unfinished: false,
  }
  const call = <T>(run: () => Promise<T>) => {
    outcome.calls += 1
    return withPageRetries(run, client.breaker, retry, stopped)
  }
  const add = (page: PageResult) => {
    outcome.created += page.created
    outcome.updated += page.updated
    outcome.skipped += page.skipped
    outcome.errors += page.errors
  }
  const total = (w: CreatedWindow) => call(() => handler.total!(client, listWindow(w)))
  const halt = () => stopped() || client.breaker.state === 'open'

  // 1. The windows whose counts differ, narrowed down while the budget lasts.
  let counts = 1
  const root: CreatedWindow = { since: null, until }
  const open = [{ w: root, upstream: await total(root) }]
  const leaves: CreatedWindow[] = []
  while (open.length > 0) {
    const { w, upstream } = open.pop()!
    const mirrored = await progress.createdCount(kind, w)
    if (mirrored === upstream) continue
    // The last row of the left half; ties at that instant all go left.
    const mid = mirrored > RECONCILE_LEAF_ROWS ? await progress.createdAt(kind, w, Math.floor(mirrored / 2) - 1) : null
    if (!mid || mid.getTime() >= w.until.getTime()) {
      leaves.push(w)
      continue
    }
    if (counts >= RECONCILE_COUNT_BUDGET || halt()) {
      outcome.unfinished = true
      break
    }
    const left: CreatedWindow = { since: w.since, until: mid }
    const right: CreatedWindow = { since: new Date(mid.getTime() + 1), until: w.until }
    counts += 1
    const leftUpstream = await total(left)
    open.push({ w: left, upstream: leftUpstream }, { w: right, upstream: upstream - leftUpstream })
  }

  // 2. Each leaf window listed; the mirror rows it did not return are the candidates.
  const candidates: string[] = []
  for (const w of leaves) {
    if (halt()) {
      outcome.unfinished = true
      break
    }
    const listed = new Set<string>()
    let more: string | null = null
    do {
      const page = await call(() => handler.page(client, listWindow(w), more))
      const written = await db.transaction(async (tx) => {
        await mirror.commitWithoutWaiting(tx)
        const result = await handler.write(tx, page.items, client)
        await progress.clearMissing(kind, result.ids, tx)
        return result
      })
      add(written)
      for (const id of written.ids) listed.add(id)
      more = page.more
    } while (more)
    for (const id of await progress.createdIds(kind, w)) if (!listed.has(id)) candidates.push(id)
  }

  // 3. Only the provider's 404 on the item itself removes it.
  if (candidates.length > CONFIRM_BUDGET) outcome.unfinished = true
  const gone: string[] = []
  const alive: unknown[] = []
  await eachLimit(candidates.slice(0, CONFIRM_BUDGET), CONCURRENCY, async (id) => {
    if (halt()) {
      outcome.unfinished = true
      return
    }
    try {
      outcome.calls += 1
      const item = await handler.fetchOne!(client, id)
      if (item === null) gone.push(id)
      else alive.push(item)
    } catch {
      // No answer: kept, and looked at again by the next run.
      outcome.unfinished = true
    }
  })
  if (gone.length > 0 || alive.length > 0) {
    await db.transaction(async (tx) => {
      if (alive.length > 0) add(await handler.write(tx, alive, client))
      outcome.removed = await progress.markRemoved(kind, gone, tx)
    })
  }
  return outcome
}
