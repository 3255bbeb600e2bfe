import { asc } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { startSimulator, type Simulator, type SimulatorOptionsInput } from '@portal/scorm-cloud-sim'
import type { Database, DbOrTx } from '../../db/client'
import { company, course, dispatch, registration, syncRun } from '../../db/schema'
import { createTestDatabase } from '../../test/test-database'
import { createScormCloudClient, type ScormCloudClient } from '../scorm-cloud/scorm-cloud.client'
import type { TransportOptions } from '../scorm-cloud/http-transport'
import { createSyncService, type SyncRepositories, type SyncService } from './sync.service'
import { createSyncRepository } from './sync.repository'
import { createSyncRunRepository } from './sync-run.repository'
import { createSyncProgressRepository } from './sync-progress.repository'

/** The sync's repositories over one database, as app.ts builds them. */
export const syncRepositories = (db: Database['db']): SyncRepositories => ({
  mirror: createSyncRepository(db),
  runs: createSyncRunRepository(db),
  progress: createSyncProgressRepository(db),
})

/** Small sizes and a page of 7, so every list needs several pages (test support, not a test). */
export const SMALL_SIZES = {
  courses: 9,
  destinations: 5,
  dispatches: 16,
  registrations: 80,
  bigDispatchRegistrations: 0,
}

export const startTestSimulator = (input: SimulatorOptionsInput = {}) =>
  startSimulator({ sizes: SMALL_SIZES, pageSize: 7, ...input })

/** A client with tiny backoffs so failure paths take milliseconds. */
export function testClient(sim: Simulator, overrides: Partial<TransportOptions> = {}): ScormCloudClient {
  return createScormCloudClient({
    baseUrl: sim.url,
    appId: sim.appId,
    secretKey: sim.secretKey,
    requestTimeoutMs: 2_000,
    maxAttempts: 3,
    backoffBaseMs: 1,
    backoffCapMs: 5,
    maxRetryAfterMs: 2_000,
    breaker: { failureThreshold: 5, openMs: 100 },
    ...overrides,
  })
}

export interface SyncFixture {
  database: Database
  client: ScormCloudClient
  sync: SyncService
  close(): Promise<void>
}

/** `repositories` may replace methods of the sync's repositories before the service is built. */
export async function syncFixture(
  sim: Simulator,
  clientOverrides: Partial<TransportOptions> = {},
  repositories: (built: SyncRepositories) => SyncRepositories = (built) => built,
): Promise<SyncFixture> {
  const database = await createTestDatabase()
  const client = testClient(sim, clientOverrides)
  const sync = createSyncService({
    database,
    repositories: repositories(syncRepositories(database.db)),
    client,
    pageRetry: { delayMs: 5 },
  })
  return {
    database,
    client,
    sync,
    async close() {
      await sync.close()
      await client.close()
      await database.close()
    },
  }
}

/**
 * A test simulator for the enclosing suite, its faults cleared after each test, and fixtures on
 * it that are closed after the suite: read `sim` inside the tests, call `fixture()` for a fresh one.
 */
export function useFixturesOnFaultySimulator() {
  const held = { fixtures: [] as SyncFixture[] } as { sim: Simulator; fixtures: SyncFixture[] }
  beforeAll(async () => {
    held.sim = await startTestSimulator()
  })
  afterEach(() => {
    held.sim.clearFaults()
  })
  afterAll(async () => {
    for (const f of held.fixtures) await f.close()
    await held.sim?.close()
  })
  return {
    get sim() {
      return held.sim
    },
    async fixture(...args: Parameters<typeof syncFixture> extends [unknown, ...infer R] ? R : never) {
      const f = await syncFixture(held.sim, ...args)
      held.fixtures.push(f)
      return f
    },
  }
}

/**
 * A test simulator and a sync fixture on it for the enclosing suite (its beforeAll and afterAll):
 * read `sim` and `f` inside the tests.
 */
export function useSyncFixture(): { readonly sim: Simulator; readonly f: SyncFixture } {
  const held = {} as { sim: Simulator; f: SyncFixture }
  beforeAll(async () => {
    held.sim = await startTestSimulator()
    held.f = await syncFixture(held.sim)
  })
  afterAll(async () => {
    await held.f?.close()
    await held.sim?.close()
  })
  return held
}

/** Every mirror row, ordered; `volatile: false` drops the columns a clean run sets to "now". */
export async function mirrorRows(db: DbOrTx, { volatile = true } = {}) {
  // Bookkeeping that depends on how many writes led to a row, not on its data: times. (Cache
  // versions live in dispatch_stat and dispatch_summary since migration 0008.)
  const strip = <T extends Record<string, unknown>>(rows: T[]) =>
    volatile ? rows : rows.map(({ syncedAt: _s, createdAt: _c, updatedAt: _u, removedAt: _r, ...rest }) => rest)
  return {
    courses: strip(await db.select().from(course).orderBy(asc(course.id))),
    companies: strip(await db.select().from(company).orderBy(asc(company.id))),
    dispatches: strip(await db.select().from(dispatch).orderBy(asc(dispatch.id))),
    registrations: strip(await db.select().from(registration).orderBy(asc(registration.id))),
  }
}

/** Three pages of registrations get through, then a 429 asks for a wait longer than a run allows. */
export const stopRegistrationsAfterThreePages = (sim: Simulator) =>
  sim.setFaults({ onlyPaths: ['/registrations'], rateLimitBurst: { every: 4, length: 1, retryAfterSeconds: 60 } })

export const syncRuns = (db: DbOrTx) => db.select().from(syncRun).orderBy(asc(syncRun.id))

export const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
