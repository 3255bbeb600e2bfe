import { ScormCloudError } from '../scorm-cloud/scorm-cloud.errors'
import { eachLimit } from '../../lib/each-limit'
import { withPageRetries } from './page-retry'
import type { KindRunDeps } from './sync-kind-run'

const CONCURRENCY = 4

export interface CounterOutcome {
  /** Companies whose counter sum was asked. */
  checked: number
  /** Of those, companies whose sum differed, so their dispatches were listed again. */
  relisted: number
  updated: number
}

/**
 * A registration counter reset upstream does not move the dispatch's `updated`, so an
 * incremental listing never brings it and license usage stayed wrong until the daily full run.
 * After each incremental dispatch listing: for every company with a live capped dispatch (the
 * ones license usage is about), one call for the sum of its dispatches' counters; where it
 * differs from the mirror's sum, that company's dispatches are listed again (usually one page)
 * and written like any page. About one small call per such company per run.
 */
export async function refreshCounters(
  deps: Pick<KindRunDeps, 'db' | 'client' | 'retry' | 'stopped' | 'repositories' | 'handlers'>,
): Promise<CounterOutcome> {
  const { db, client, retry, stopped } = deps
  const { mirror, progress } = deps.repositories
  const sums = await mirror.counterSums()
  const outcome: CounterOutcome = { checked: 0, relisted: 0, updated: 0 }
  const handler = deps.handlers.dispatches
  await eachLimit([...sums], CONCURRENCY, async ([destinationId, mirrored]) => {
    if (stopped()) return
    let upstream: number
    try {
      upstream = await withPageRetries(
        () => client.destinationRegistrationCount(destinationId),
        client.breaker,
        retry,
        stopped,
      )
    } catch (error) {
      // Gone upstream: the removal check of the next full run deals with it.
      if (error instanceof ScormCloudError && error.providerStatus === 404) return
      throw error
    }
    outcome.checked += 1
    if (upstream === mirrored) return
    outcome.relisted += 1
    let more: string | null = null
    do {
      const page = await withPageRetries(
        () => client.destinationDispatchPage(destinationId, more),
        client.breaker,
        retry,
        stopped,
      )
      const written = await db.transaction(async (tx) => {
        await mirror.commitWithoutWaiting(tx)
        const result = await handler.write(tx, page.items, client)
        await progress.clearMissing('dispatches', result.ids, tx)
        return result
      })
      outcome.updated += written.updated
      more = page.more
    } while (more)
  })
  return outcome
}
