import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { count, desc, eq } from 'drizzle-orm'
import { startSimulator, type Simulator } from '@portal/scorm-cloud-sim'
import { registration, syncCheckpoint, syncRun } from '../../db/schema'
import { SMALL_SIZES, mirrorRows, syncFixture, type SyncFixture } from '../../modules/sync/sync.test-support'

/**
 * Reliability suite: a large account on a flaky provider. The cursor used to
 * move only after a whole kind completed, so every failed registrations run started again at
 * page 1 and, at 30 % upstream errors, never finished (10,246 of 20,000 after four runs). Now each
 * page commits its checkpoint (the provider's `more` token) with its rows, the next run resumes
 * there, and each page has a retry budget of its own.
 */
let sim: Simulator | null = null
let f: SyncFixture | null = null
afterEach(async () => {
  await f?.close()
  await sim?.close()
  f = null
  sim = null
})
afterAll(async () => {
  await f?.close()
  await sim?.close()
})

const registrationsRun = async (fixture: SyncFixture) =>
  (
    await fixture.database.db
      .select()
      .from(syncRun)
      .where(eq(syncRun.kind, 'registrations'))
      .orderBy(desc(syncRun.id))
      .limit(1)
  )[0]!
const mirrored = async (fixture: SyncFixture) =>
  (await fixture.database.db.select({ n: count() }).from(registration))[0]!.n

describe('a run that fails midway', () => {
  it('is resumed by the next run at the page after the last one written, not at page 1', async () => {
    sim = await startSimulator({ sizes: SMALL_SIZES, pageSize: 7, seed: 8 })
    f = await syncFixture(sim)
    const pages = Math.ceil(sim.data.counts().registrations / 7)
    // The fourth registrations page is refused with a wait longer than the client allows.
    sim.setFaults({ onlyPaths: ['/registrations'], rateLimitBurst: { every: 4, length: 1, retryAfterSeconds: 60 } })
    const first = await f.sync.run({ trigger: 'startup' })
    expect(first.ok).toBe(false)
    expect(await registrationsRun(f)).toMatchObject({ status: 'failed', created: 21 })
    const [checkpoint] = await f.database.db.select().from(syncCheckpoint)
    expect(checkpoint).toMatchObject({ kind: 'registrations', since: null, pages: 3 })
    expect(checkpoint!.nextPage).toBeTruthy()

    sim.clearFaults()
    sim.resetStats()
    const second = await f.sync.run({ trigger: 'schedule' })
    expect(second.ok).toBe(true)
    // Only the pages not written yet were asked for.
    expect(sim.stats().byPath['GET /registrations']).toBe(pages - 3)
    expect(await registrationsRun(f)).toMatchObject({
      status: 'succeeded',
      created: sim.data.counts().registrations - 21,
      message: 'Resumed at page 4.',
    })
    expect(await f.database.db.select().from(syncCheckpoint)).toEqual([])
    expect((await mirrorRows(f.database.db)).registrations).toHaveLength(sim.data.counts().registrations)
  })

  it('starts the listing again when the provider refuses the saved page token', async () => {
    sim = await startSimulator({ sizes: SMALL_SIZES, pageSize: 7, seed: 8 })
    f = await syncFixture(sim)
    sim.setFaults({ onlyPaths: ['/registrations'], rateLimitBurst: { every: 4, length: 1, retryAfterSeconds: 60 } })
    expect((await f.sync.run({ trigger: 'startup' })).ok).toBe(false)
    sim.clearFaults()
    // As if the token had expired: the simulator answers 400 to a token it cannot read.
    await f.database.db.update(syncCheckpoint).set({ nextPage: 'expired-token' })
    expect((await f.sync.run({ trigger: 'schedule' })).ok).toBe(true)
    expect((await registrationsRun(f)).message).toBe(
      'Resumed at page 4. The provider refused the saved page token: the listing started again.',
    )
    expect(await mirrored(f)).toBe(sim.data.counts().registrations)
  })
})

describe('a large account at 30 % upstream errors', () => {
  it('converges within a bounded number of runs, reading each page about once', async () => {
    const REGISTRATIONS = 20_000
    const PAGE = 250
    const MAX_RUNS = 10
    sim = await startSimulator({
      seed: 20,
      pageSize: PAGE,
      sizes: {
        courses: 20,
        destinations: 20,
        dispatches: 200,
        registrations: REGISTRATIONS,
        bigDispatchRegistrations: 0,
      },
    })
    // Production's retry policy and breaker threshold; only the waits are shortened. The breaker's
    // clock runs with real time plus the open periods the test skips, so no test sleeps them out
    // (a faked global Date would also move the in-process simulator's clock).
    let skipped = 0
    f = await syncFixture(sim, { breaker: { failureThreshold: 5, openMs: 50, now: () => Date.now() + skipped } })
    sim.setFaults({ errorRate: 0.3, errorStatuses: [500, 502, 503, 504] })
    const progress: number[] = []
    let runs = 0
    // A run ends when the circuit opens (5 failures in a row happen at 30 %) or its half-open probe
    // fails; the next one resumes. Rarely more than 3 are needed; 10 leaves a wide margin.
    while (runs < MAX_RUNS) {
      runs += 1
      const outcome = await f.sync.run({ trigger: 'schedule' })
      progress.push(await mirrored(f))
      if (outcome.ok) break
      skipped += 60 // past the breaker's open period
    }
    const stats = sim.stats()
    sim.clearFaults()
    expect(stats.faults.errors).toBeGreaterThan(0)
    expect(progress.at(-1), `mirror after each run: ${progress.join(', ')}`).toBe(REGISTRATIONS)
    expect(runs).toBeLessThanOrEqual(MAX_RUNS)
    // Never back to page 1: each page was answered once, plus at most one page read ahead and
    // not written per interrupted run.
    // (The simulator counts a route only for requests it answered, not for injected faults.)
    const pages = REGISTRATIONS / PAGE
    expect(stats.byRoute['GET /registrations']).toBeLessThanOrEqual(pages + (runs - 1))
    for (let i = 1; i < progress.length; i++) expect(progress[i]!).toBeGreaterThanOrEqual(progress[i - 1]!)
    console.info(`large account: ${runs} run(s), mirror after each: ${progress.join(', ')}`)
  }, 180_000)
})
