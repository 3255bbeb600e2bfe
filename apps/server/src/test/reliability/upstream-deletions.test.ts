import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isNotNull, isNull } from 'drizzle-orm'
import { startSimulator, type Simulator } from '@portal/scorm-cloud-sim'
import type { Database } from '../../db/client'
import { dispatch } from '../../db/schema'
import type { ListPage, ListWindow, ScormCloudClient } from '../../modules/scorm-cloud/scorm-cloud.client'
import type { DispatchIdSchema } from '../../modules/scorm-cloud/scorm-cloud.types'
import { ScormCloudError } from '../../modules/scorm-cloud/scorm-cloud.errors'
import { createSyncService, type SyncService } from '../../modules/sync/sync.service'
import { syncRepositories, testClient } from '../../modules/sync/sync.test-support'
import { createTestDatabase } from '../test-database'

/**
 * Reliability suite: a dispatch deleted in SCORM Cloud stayed live in the mirror after an
 * incremental sync (SCORM Cloud's lists never return deleted items), until the daily full run.
 * Each incremental run now compares the provider's counts by creation window with the mirror's
 * and narrows a difference down (sync-reconcile.ts); only a 404 on the item's own GET removes it.
 * 600 dispatches in pages of 50, so a difference is narrowed twice before a window is listed.
 */
let sim: Simulator
let database: Database
let client: ScormCloudClient
let sync: SyncService
/** When set, the listing of a creation window (the check's own listing) goes through it. */
let createdWindowPage: ((page: ListPage<DispatchIdSchema>) => ListPage<DispatchIdSchema>) | null = null

const DISPATCHES = 600
const PAGE = 50

beforeAll(async () => {
  sim = await startSimulator({
    seed: 21,
    pageSize: PAGE,
    sizes: { courses: 20, destinations: 40, dispatches: DISPATCHES, registrations: 200, bigDispatchRegistrations: 0 },
  })
  database = await createTestDatabase()
  client = testClient(sim)
  const read = client.dispatchPage.bind(client)
  client.dispatchPage = async (w: ListWindow, more: string | null) => {
    const page = await read(w, more)
    return w.datetimeFilter === 'created' && createdWindowPage ? createdWindowPage(page) : page
  }
  sync = createSyncService({ database, repositories: syncRepositories(database.db), client, pageRetry: { delayMs: 5 } })
  expect((await sync.run({ trigger: 'startup' })).ok).toBe(true)
})
afterAll(async () => {
  await sync?.close()
  await client?.close()
  await database?.close()
  await sim?.close()
})

const removed = async () =>
  (await database.db.select({ id: dispatch.id }).from(dispatch).where(isNotNull(dispatch.removedAt))).map((r) => r.id)
const live = async () =>
  (await database.db.select({ id: dispatch.id }).from(dispatch).where(isNull(dispatch.removedAt))).length
const dispatchesRun = (outcome: Awaited<ReturnType<SyncService['run']>>) =>
  outcome.results.find((r) => r.kind === 'dispatches')!
const dispatchListRequests = () => sim.stats().byPath['GET /dispatch/dispatches'] ?? 0

describe('a dispatch deleted upstream between two incremental runs', () => {
  it('costs one count request per run when nothing was deleted', async () => {
    sim.resetStats()
    const outcome = await sync.run({ trigger: 'schedule' })
    expect(outcome.ok).toBe(true)
    expect(dispatchesRun(outcome).message).toBeNull()
    // The incremental listing (one page: nothing changed) and the check's one count, for each kind.
    expect(dispatchListRequests()).toBe(2)
    expect(sim.stats().byPath['GET /courses']).toBe(2)
    expect(sim.stats().byPath['GET /dispatch/destinations']).toBe(2)
    for (const r of outcome.results) expect(r.message, r.kind).toBeNull()
    expect(await removed()).toEqual([])
    expect(await live()).toBe(DISPATCHES)
  })

  it('is marked removed by the next incremental run, for far less than a full listing', async () => {
    const gone = sim.data.listDispatchIds()[123]!
    sim.removeDispatch(gone)
    expect(await live()).toBe(DISPATCHES)
    sim.resetStats()

    const outcome = await sync.run({ trigger: 'schedule' })

    expect(outcome.ok).toBe(true)
    expect(dispatchesRun(outcome).message).toBe('1 marked removed upstream.')
    expect(await removed()).toEqual([gone])
    expect(await live()).toBe(sim.data.counts().dispatches)
    // One listing page, three counts (600 -> 300 -> 150 rows) and the 150-row window's 3 pages:
    // fewer list requests than a full listing's 12 pages, and one GET of the missing dispatch.
    expect(dispatchListRequests()).toBe(7)
    expect(dispatchListRequests()).toBeLessThan(DISPATCHES / PAGE)
    expect(sim.stats().byRoute['GET /dispatch/dispatches/{dispatchId}']).toBe(1)
  })

  it('removes nothing while the provider does not confirm, and removes it once it does', async () => {
    const gone = sim.data.listDispatchIds()[400]!
    sim.removeDispatch(gone)
    // Every GET of a single dispatch fails: its 404 cannot be seen.
    sim.setFaults({ errorRate: 1, errorStatuses: [503], onlyPaths: ['/dispatch/dispatches/'] })
    try {
      const first = await sync.run({ trigger: 'schedule' })
      expect(first.ok).toBe(true)
      expect(dispatchesRun(first).message).toBe(
        'The check for items deleted upstream did not finish: the next run goes on.',
      )
      expect(await removed()).not.toContain(gone)
    } finally {
      sim.clearFaults()
    }
    const second = await sync.run({ trigger: 'schedule' })
    expect(dispatchesRun(second).message).toBe('1 marked removed upstream.')
    expect(await removed()).toContain(gone)
    expect(await live()).toBe(sim.data.counts().dispatches)
  })

  it('removes nothing when the check’s listing fails, and finishes on the next run', async () => {
    const gone = sim.data.listDispatchIds()[50]!
    sim.removeDispatch(gone)
    createdWindowPage = () => {
      throw new ScormCloudError('SCORM Cloud could not be reached.', 0, false)
    }
    try {
      const first = await sync.run({ trigger: 'schedule' })
      // The listing by `updated` was written and its cursor moved: the run succeeded.
      expect(first.ok).toBe(true)
      expect(dispatchesRun(first).message).toBe(
        'The check for items deleted upstream stopped (SCORM Cloud could not be reached.): nothing was removed, the next run checks again.',
      )
      expect(await removed()).not.toContain(gone)
      expect(await live()).toBe(sim.data.counts().dispatches + 1)
    } finally {
      createdWindowPage = null
    }
    const second = await sync.run({ trigger: 'schedule' })
    expect(dispatchesRun(second).message).toBe('1 marked removed upstream.')
    expect(await removed()).toContain(gone)
  })

  it('keeps the live dispatches a partial listing of the window left out', async () => {
    const gone = sim.data.listDispatchIds()[300]!
    sim.removeDispatch(gone)
    // The window's first page comes back with its first ten items missing.
    let dropped: string[] = []
    createdWindowPage = (page) => {
      if (dropped.length > 0) return page
      dropped = page.items.slice(0, 10).map((d) => d.id)
      return { ...page, items: page.items.slice(10) }
    }
    try {
      const outcome = await sync.run({ trigger: 'schedule' })
      expect(outcome.ok).toBe(true)
      expect(dispatchesRun(outcome).message).toBe('1 marked removed upstream.')
    } finally {
      createdWindowPage = null
    }
    expect(dropped).toHaveLength(10)
    const removedNow = await removed()
    expect(removedNow).toContain(gone)
    for (const id of dropped) expect(removedNow).not.toContain(id)
    expect(await live()).toBe(sim.data.counts().dispatches)
  })
})
