import { sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import type { ScormCloudClient } from '../scorm-cloud/scorm-cloud.client'
import { ScormCloudError } from '../scorm-cloud/scorm-cloud.errors'
import { eachLimit } from './each-limit'
import { withPageRetries, type PageRetry } from './page-retry'
import { KIND_HANDLERS } from './sync.kinds'
import { syncProgressRepository as progress } from './sync-progress.repository'
import { syncRepository } from './sync.repository'

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
  db: Db,
  client: ScormCloudClient,
  retry: PageRetry,
  stopped: () => boolean,
): Promise<CounterOutcome> {
  const sums = await syncRepository.counterSums(db)
  const outcome: CounterOutcome = { checked: 0, relisted: 0, updated: 0 }
  const handler = KIND_HANDLERS.dispatches
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
        await tx.execute(sql`set local synchronous_commit = off`)
        const result = await handler.write(tx, page.items, client)
        await progress.clearMissing(tx, 'dispatches', result.ids)
        return result
      })
      outcome.updated += written.updated
      more = page.more
    } while (more)
  })
  return outcome
}
