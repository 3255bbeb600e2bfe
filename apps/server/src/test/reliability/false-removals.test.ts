import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq, isNotNull, isNull } from 'drizzle-orm'
import { startSimulator, type Simulator } from '@portal/scorm-cloud-sim'
import type { Database } from '../../db/client'
import { company, dispatch, syncMissing } from '../../db/schema'
import type { ListWindow, ScormCloudClient } from '../../modules/scorm-cloud/scorm-cloud.client'
import { createSyncService, type SyncService } from '../../modules/sync/sync.service'
import { syncRepositories, testClient } from '../../modules/sync/sync.test-support'
import { createTestDatabase } from '../test-database'

/**
 * Reliability suite: a full run marked live dispatches removed when the
 * provider's list changed while it paged. The simulator runs in `offset` paging mode (a `more`
 * token is a position in the list sorted by `updated`, the default order): editing items the
 * scan has already passed moves them to the end, and the scan skips as many live ones. Nothing
 * may be marked removed unless its own GET answers 404, or two consecutive full runs miss it.
 */
let sim: Simulator
let database: Database
let client: ScormCloudClient
let sync: SyncService
/** Called after the n-th page of a list was read (1-based), while the run is under way. */
let afterPage: { path: 'dispatches' | 'destinations'; page: number; run: () => void } | null = null

beforeAll(async () => {
  sim = await startSimulator({
    seed: 14,
    pageSize: 25,
    paging: 'offset',
    sizes: { courses: 30, destinations: 60, dispatches: 480, registrations: 500, bigDispatchRegistrations: 0 },
  })
  database = await createTestDatabase()
  client = testClient(sim)
  // Edits made by "someone else" at a precise point of the scan: after a given page was read.
  const counted = (
    path: 'dispatches' | 'destinations',
    read: (w: ListWindow, more: string | null) => Promise<never>,
  ) => {
    let pages = 0
    return async (w: ListWindow, more: string | null) => {
      const page = await read(w, more)
      if (!more) pages = 0
      pages += 1
      if (afterPage?.path === path && afterPage.page === pages) afterPage.run()
      return page
    }
  }
  client.dispatchPage = counted('dispatches', client.dispatchPage as never) as typeof client.dispatchPage
  client.destinationPage = counted('destinations', client.destinationPage as never) as typeof client.destinationPage
  sync = createSyncService({ database, repositories: syncRepositories(database.db), client, pageRetry: { delayMs: 5 } })
  expect((await sync.run({ trigger: 'startup' })).ok).toBe(true)
})
afterAll(async () => {
  await sync?.close()
  await client?.close()
  await database?.close()
  await sim?.close()
})

const removedDispatches = async () =>
  (await database.db.select({ id: dispatch.id }).from(dispatch).where(isNotNull(dispatch.removedAt))).map((r) => r.id)
const liveDispatches = async () =>
  (await database.db.select({ id: dispatch.id }).from(dispatch).where(isNull(dispatch.removedAt))).length
const resultOf = (outcome: { results: { kind: string; message: string | null }[] }, kind: string) =>
  outcome.results.find((r) => r.kind === kind)!
/** The provider's list order now (updated ascending), as a scan would see it. */
const order = (ids: string[], get: (id: string) => { updated?: string } | undefined) =>
  [...ids].sort((a, b) => Date.parse(get(a)!.updated!) - Date.parse(get(b)!.updated!) || (a < b ? -1 : 1))

describe('a full run while the provider list changes under it', () => {
  it('keeps the live dispatches its scan skipped when five are edited mid-run', async () => {
    const listed = order(sim.data.listDispatchIds(), (id) => sim.data.getDispatch(id))
    // After page 3 (items 0-74), five items from page 1 are edited: they move to the end, and
    // every item from position 75 on moves five places forward, so page 4 skips five live ones.
    afterPage = {
      path: 'dispatches',
      page: 3,
      run: () => listed.slice(0, 5).forEach((id, i) => sim.touchDispatch(id, { notes: `edited ${i}` })),
    }
    const outcome = await sync.run({ trigger: 'schedule', full: true })
    afterPage = null
    expect(outcome.ok).toBe(true)
    expect(await removedDispatches()).toEqual([])
    expect(await liveDispatches()).toBe(sim.data.counts().dispatches)
    // The scan did skip five: each was confirmed by its own GET and kept.
    expect(resultOf(outcome, 'dispatches').message).toBe('5 not listed but confirmed by the provider, kept.')
    expect(await database.db.select().from(syncMissing)).toEqual([])
    // The edits themselves reached the mirror.
    const [edited] = await database.db.select().from(dispatch).where(eq(dispatch.id, listed[0]!))
    expect(edited!.notes).toBe('edited 0')
  })

  it('keeps the live companies its scan skipped when companies are renamed mid-run', async () => {
    const listed = order(sim.data.listDestinationIds(), (id) => sim.data.getDestination(id))
    afterPage = {
      path: 'destinations',
      page: 1,
      run: () => listed.slice(0, 3).forEach((id, i) => sim.touchDestination(id, { name: `Renamed ${i}` })),
    }
    const outcome = await sync.run({ trigger: 'schedule', full: true })
    afterPage = null
    expect(outcome.ok).toBe(true)
    expect(resultOf(outcome, 'destinations').message).toContain('3 not listed but confirmed by the provider, kept.')
    expect(await database.db.select().from(company).where(isNotNull(company.removedAt))).toEqual([])
    const [renamed] = await database.db.select().from(company).where(eq(company.id, listed[0]!))
    expect(renamed!.name).toBe('Renamed 0')
  })

  it('marks a dispatch removed at once when its own GET answers 404', async () => {
    const gone = sim.data.listDispatchIds()[7]!
    sim.removeDispatch(gone)
    const outcome = await sync.run({ trigger: 'schedule', full: true })
    expect(resultOf(outcome, 'dispatches').message).toBe('1 marked removed upstream.')
    expect(await removedDispatches()).toEqual([gone])
  })

  it('marks one that cannot be confirmed removed only when the next full run misses it too', async () => {
    const gone = sim.data.listDispatchIds()[11]!
    sim.removeDispatch(gone)
    // Every GET of a single dispatch fails: the removal cannot be confirmed.
    sim.setFaults({ errorRate: 1, errorStatuses: [503], onlyPaths: ['/dispatch/dispatches/'] })
    try {
      const first = await sync.run({ trigger: 'schedule', full: true })
      expect(resultOf(first, 'dispatches').message).toBe(
        '1 not listed and not confirmed: removed if the next full run misses them too.',
      )
      expect(await removedDispatches()).not.toContain(gone)
      expect(
        await database.db.select({ id: syncMissing.id }).from(syncMissing).where(eq(syncMissing.kind, 'dispatches')),
      ).toEqual([{ id: gone }])

      // An incremental run in between removes nothing.
      await sync.run({ trigger: 'schedule' })
      expect(await removedDispatches()).not.toContain(gone)

      const second = await sync.run({ trigger: 'schedule', full: true })
      expect(resultOf(second, 'dispatches').message).toBe('1 marked removed upstream.')
      expect(await removedDispatches()).toContain(gone)
      expect(await database.db.select().from(syncMissing)).toEqual([])
    } finally {
      sim.clearFaults()
    }
  })
})
