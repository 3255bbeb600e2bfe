import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import type { Simulator } from '@portal/scorm-cloud-sim'
import { company, course, syncCursor, syncRun } from '../../db/schema'
import { SYNC_LOCK_KEY } from './sync.service'
import { startTestSimulator, syncFixture, syncRuns, type SyncFixture } from './sync.test-support'

let sim: Simulator
let f: SyncFixture
beforeAll(async () => {
  sim = await startTestSimulator()
  f = await syncFixture(sim)
  expect((await f.sync.run({ trigger: 'startup' })).ok).toBe(true)
})
afterAll(async () => {
  await f.close()
  await sim.close()
})

describe('one run at a time', () => {
  it('runs two syncs started together once', async () => {
    const g = await syncFixture(sim)
    try {
      const [a, b] = await Promise.all([g.sync.run({ trigger: 'manual' }), g.sync.run({ trigger: 'manual' })])
      expect(a).toBe(b)
      expect((await syncRuns(g.database.db)).map((r) => r.kind)).toEqual([
        'courses',
        'destinations',
        'dispatches',
        'registrations',
      ])
    } finally {
      await g.close()
    }
  })

  it('marks runs left running by a process that died as failed, once it holds the lock', async () => {
    const [dead] = await f.database.db
      .insert(syncRun)
      .values({ kind: 'courses', trigger: 'schedule', status: 'running' })
      .returning()
    await f.sync.syncCompanies('manual')
    const [row] = await f.database.db.select().from(syncRun).where(eq(syncRun.id, dead!.id))
    expect(row).toMatchObject({ status: 'failed', message: 'Interrupted: the server stopped during the run.' })
  })

  it('answers "A sync is already running." without running when another process holds the lock', async () => {
    const before = (await syncRuns(f.database.db)).length
    const lock = await f.database.tryLock(SYNC_LOCK_KEY)
    expect(lock).not.toBeNull()
    try {
      await expect(f.sync.run({ trigger: 'manual' })).rejects.toMatchObject({
        code: 'CONFLICT',
        message: 'A sync is already running.',
      })
    } finally {
      await lock!.release()
    }
    expect(await syncRuns(f.database.db)).toHaveLength(before)
  })

  it('gives a dispatch whose course or destination is not mirrored yet stub rows', async () => {
    const g = await syncFixture(sim)
    try {
      const outcome = await g.sync.run({ trigger: 'manual', kinds: ['dispatches'] })
      expect(outcome.ok).toBe(true)
      const d = sim.data.getDispatch(sim.data.listDispatchIds()[1]!)!
      const [c] = await g.database.db.select().from(course).where(eq(course.id, d.courseId!))
      const [co] = await g.database.db.select().from(company).where(eq(company.id, d.destinationId!))
      expect(c).toMatchObject({ title: d.courseTitle, providerUpdated: null })
      expect(co).toMatchObject({ name: d.destinationName })
    } finally {
      await g.close()
    }
  })

  it('knows when the daily full run is due, in the database every process shares', async () => {
    expect(await f.sync.fullRunDue()).toBe(false)
    await f.database.db
      .update(syncCursor)
      .set({ since: new Date(Date.now() - 25 * 60 * 60_000) })
      .where(eq(syncCursor.kind, 'full-run'))
    expect(await f.sync.fullRunDue()).toBe(true)
  })

  it('stops a run in flight when closed, recording why', async () => {
    const g = await syncFixture(sim)
    try {
      const running = g.sync.run({ trigger: 'manual' })
      await g.sync.close()
      const outcome = await running
      expect(outcome.ok).toBe(false)
      expect(outcome.results.every((r) => r.status === 'failed')).toBe(true)
      expect(outcome.results[0]!.message).toBe('The sync stopped: the server is shutting down.')
      expect((await syncRuns(g.database.db)).every((r) => r.status !== 'running')).toBe(true)
      await expect(g.sync.run({ trigger: 'manual' })).rejects.toMatchObject({ code: 'NOT_READY' })
    } finally {
      await g.close()
    }
  })
})
