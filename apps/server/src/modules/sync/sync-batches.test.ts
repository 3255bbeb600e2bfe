import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Simulator } from '@portal/scorm-cloud-sim'
import { PAGES_PER_WRITE } from './sync-kind-run'
import { mirrorRows, SMALL_SIZES, startTestSimulator, syncFixture, tick } from './sync.test-support'

const PAGE = 7

let sim: Simulator
beforeAll(async () => {
  sim = await startTestSimulator({ pageSize: PAGE })
})
afterAll(async () => {
  await sim.close()
})

/** A sync whose registration writes take a while and are recorded, over a fresh database. */
async function slowWriterSync(delayMs: number) {
  const writes: number[] = []
  const f = await syncFixture(sim, {}, (repositories) => {
    // A first sync stages its registrations; a later one upserts them: both are slowed and counted.
    for (const method of ['stageRegistrations', 'upsertRegistrations'] as const) {
      const write = repositories.mirror[method]
      repositories.mirror[method] = async (rows, tx) => {
        writes.push(rows.length)
        await tick(delayMs)
        return write(rows, tx)
      }
    }
    return repositories
  })
  return { ...f, writes }
}

describe('a listing whose writer is slower than the provider', () => {
  it('writes the pages read meanwhile together, and mirrors every registration as one page at a time does', async () => {
    const slow = await slowWriterSync(60)
    const fast = await slowWriterSync(0)
    try {
      const outcome = await slow.sync.run({ trigger: 'startup' })
      expect(outcome.ok).toBe(true)
      expect(outcome.results.find((r) => r.kind === 'registrations')).toMatchObject({
        status: 'succeeded',
        created: SMALL_SIZES.registrations,
      })
      // Pages piled up while a write was under way, and went in together; never more than the read-ahead.
      expect(Math.max(...slow.writes)).toBeGreaterThan(PAGE)
      expect(Math.max(...slow.writes)).toBeLessThanOrEqual(PAGE * PAGES_PER_WRITE)
      expect(slow.writes.length).toBeLessThan(Math.ceil(SMALL_SIZES.registrations / PAGE))

      expect((await fast.sync.run({ trigger: 'startup' })).ok).toBe(true)
      expect(await mirrorRows(slow.database.db, { volatile: false })).toEqual(
        await mirrorRows(fast.database.db, { volatile: false }),
      )
    } finally {
      await slow.close()
      await fast.close()
    }
  })
})
