import type { Simulator } from '@portal/scorm-cloud-sim'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type * as statistics from '../../db/statistics'
import { analyzeStaleTables } from '../../db/statistics'
import { STATISTICS_EVERY_PAGES } from './sync-kind-run'
import { startTestSimulator, syncFixture, type SyncFixture } from './sync.test-support'

// The real function, watched: the sync must ask it while it fills the mirror (db/statistics.ts).
vi.mock('../../db/statistics', async (original) => {
  const actual = await original<typeof statistics>()
  return { ...actual, analyzeStaleTables: vi.fn(actual.analyzeStaleTables) }
})

let sim: Simulator
let f: SyncFixture
beforeAll(async () => {
  sim = await startTestSimulator()
  f = await syncFixture(sim)
})
afterAll(async () => {
  await f.close()
  await sim.close()
})

describe('the sync keeps planner statistics current (no autovacuum needed)', () => {
  it(`checks them every ${STATISTICS_EVERY_PAGES} pages of a listing and when each kind is done`, async () => {
    const check = vi.mocked(analyzeStaleTables)
    check.mockClear()
    expect((await f.sync.run({ trigger: 'manual', full: true })).ok).toBe(true)
    // Four kinds end (courses, destinations, dispatches, registrations); the registrations'
    // 12 pages of 7 pass page 10 once.
    expect(check).toHaveBeenCalledTimes(5)
  })

  it('goes on when the check fails (a sync is not lost to ANALYZE)', async () => {
    const check = vi.mocked(analyzeStaleTables)
    check.mockRejectedValue(new Error('analyze refused'))
    try {
      const outcome = await f.sync.run({ trigger: 'manual', full: true })
      expect(outcome.ok).toBe(true)
      expect(outcome.results.map((r) => r.status)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded'])
    } finally {
      check.mockReset()
    }
  })
})
