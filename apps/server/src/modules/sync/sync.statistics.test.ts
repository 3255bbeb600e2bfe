import { describe, expect, it } from 'vitest'
import type { Db } from '../../db/client'
import { analyzeStaleTables } from '../../db/statistics'
import { createSyncService } from './sync.service'
import { STATISTICS_EVERY_PAGES } from './sync-kind-run'
import { syncRepositories, useSyncFixture } from './sync.test-support'

const fixture = useSyncFixture()

/** A sync of the fixture's database whose statistics keeper is the real one, watched (db/statistics.ts). */
function watchedSync(keeper: (db: Db) => Promise<unknown>) {
  const { f } = fixture
  return createSyncService({
    database: f.database,
    repositories: syncRepositories(f.database.db),
    client: f.client,
    pageRetry: { delayMs: 5 },
    analyzeStatistics: keeper,
  })
}

describe('the sync keeps planner statistics current (no autovacuum needed)', () => {
  it(`checks them every ${STATISTICS_EVERY_PAGES} pages of a listing and when each kind is done`, async () => {
    let calls = 0
    const sync = watchedSync((db) => {
      calls += 1
      return analyzeStaleTables(db)
    })
    try {
      expect((await sync.run({ trigger: 'manual', full: true })).ok).toBe(true)
    } finally {
      await sync.close()
    }
    // Four kinds end (courses, destinations, dispatches, registrations); the registrations'
    // 12 pages of 7 pass page 10 once.
    expect(calls).toBe(5)
  })

  it('goes on when the check fails (a sync is not lost to ANALYZE)', async () => {
    const sync = watchedSync(() => Promise.reject(new Error('analyze refused')))
    try {
      const outcome = await sync.run({ trigger: 'manual', full: true })
      expect(outcome.ok).toBe(true)
      expect(outcome.results.map((r) => r.status)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded'])
    } finally {
      await sync.close()
    }
  })
})
