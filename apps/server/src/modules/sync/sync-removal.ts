import type { Tx } from '../../db/client'
import type { ScormCloudClient } from '../scorm-cloud/scorm-cloud.client'
import { eachLimit } from '../../lib/each-limit'
import type { KindHandler, PageResult } from './sync.kinds'
import type { RemovableKind, SyncProgressRepository } from './sync-progress.repository'

/** Own GETs per kind and run for items a full listing did not return; the rest wait for the next full run. */
export const CONFIRM_BUDGET = 200
const CONCURRENCY = 4

export interface RemovalOutcome {
  /** Marked removed: a 404 on their own GET, or missed by two full listings in a row. */
  removed: number
  /** Not listed, but their GET answered: written from it and kept. */
  kept: PageResult | null
  /** Missed once and not confirmed either way: removed only if the next full listing misses them too. */
  pending: number
}

/**
 * The end of a complete full listing (the provider's answers; the writes are returned
 * to be applied in the listing's last transaction) of courses, destinations or dispatches. A paged
 * scan can miss live items (the provider's order changes while it pages: an edit moves an item
 * already read behind the cursor), so "not listed" alone never removes anything. An item is
 * marked removed only when the provider confirms it, a 404 on its own GET, or when two
 * consecutive complete full listings missed it (GETs that failed, or past CONFIRM_BUDGET).
 */
export async function settleUnseen(
  progress: SyncProgressRepository,
  client: ScormCloudClient,
  kind: RemovableKind,
  handler: KindHandler,
  stopped: () => boolean,
): Promise<(tx: Tx) => Promise<RemovalOutcome>> {
  const candidates = await progress.unseen(kind)
  const missedBefore = await progress.missed(kind)
  // Items missed for the first time first: without an answer they cannot be removed this run.
  const ordered = [
    ...candidates.filter((id) => !missedBefore.has(id)),
    ...candidates.filter((id) => missedBefore.has(id)),
  ]
  const unconfirmed = new Set(candidates)
  const gone: string[] = []
  const alive: unknown[] = []
  await eachLimit(ordered.slice(0, CONFIRM_BUDGET), CONCURRENCY, async (id) => {
    if (stopped() || client.breaker.state === 'open') return
    try {
      const item = await handler.fetchOne!(client, id)
      if (item === null) gone.push(id)
      else alive.push(item)
      unconfirmed.delete(id)
    } catch {
      // No answer: the two-run rule decides.
    }
  })
  const twice = [...unconfirmed].filter((id) => missedBefore.has(id))
  const once = [...unconfirmed].filter((id) => !missedBefore.has(id))
  // Applied in the transaction that ends the listing (cursor, checkpoint, run row): were it
  // committed on its own, a crash before that end would let the resumed run count `once` twice.
  return async (tx) => {
    const kept = alive.length > 0 ? await handler.write(tx, alive, client) : null
    const removed = await progress.markRemoved(kind, [...gone, ...twice], tx)
    await progress.setMissing(kind, once, tx)
    return { removed, kept, pending: once.length }
  }
}
