import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { desc, eq, gt, isNull } from 'drizzle-orm'
import { dispatch, syncRun } from '../../db/schema'
import { EDIT_MESSAGES } from '../../modules/dispatches/dispatch-update.service'
import { mirrorRows } from '../../modules/sync/sync.test-support'
import { providerFixture, readAll, type ProviderFixture } from './provider.test-support'
import { appParts } from '../../app'

/**
 * Reliability suite, part 1: SCORM Cloud answering 30% errors, stalling past the
 * request timeout and sending 429 bursts while a full sync and admin dispatch edits run. The
 * browser's reads come from the mirror and never see a 5xx; every call to the provider stays
 * within the retry budget; the sync records what failed; with the faults gone a run completes.
 */
let f: ProviderFixture
/**
 * The breaker's clock: real time plus the open periods the test skips instead of sleeping them
 * out (a faked global Date would also move the in-process simulator's clock).
 */
let skipped = 0
beforeAll(async () => {
  f = await providerFixture({ now: () => Date.now() + skipped })
})
afterAll(async () => f?.close())

const MAX_ATTEMPTS = 3

describe('SCORM Cloud answering errors, stalls and 429 bursts', () => {
  it('keeps every read at 200, edits at 200, 202 or 502, and outbound calls within the retry budget', async () => {
    const { sim, t } = f
    const client = appParts(t.app).scormCloud!
    sim.resetStats()
    const attemptsBefore = client.attempts()
    const firstRun = (await t.database.db.select({ id: syncRun.id }).from(syncRun)).length
    sim.setFaults({
      errorRate: 0.3,
      errorStatuses: [500, 502, 503, 504],
      stallRate: 0.05,
      stallMs: 1_500, // past the 400 ms request timeout: the attempt is abandoned and retried
      rateLimitBurst: { every: 20, length: 1, retryAfterSeconds: 1 },
    })

    let syncing = true
    const sync = appParts(t.app)
      .sync!.run({ trigger: 'manual', full: true })
      .finally(() => {
        syncing = false
      })
    const edits: { status: number; message: string }[] = []
    const reads: { url: string; status: number }[] = []
    for (let round = 0; round < 6 || (syncing && round < 60); round++) {
      const [edit, batch] = await Promise.all([
        t.app.inject({
          method: 'PUT',
          url: `/api/dispatches/${f.dispatchId}`,
          headers: f.admin,
          payload: { notes: `Round ${round}` },
        }),
        readAll(f),
      ])
      edits.push({ status: edit.statusCode, message: edit.json<{ message?: string }>().message ?? '' })
      reads.push(...batch)
    }
    const outcome = await sync

    expect(reads.filter((r) => r.status !== 200)).toEqual([])
    for (const edit of edits) {
      // 202: the edit landed upstream but reading it back failed (the mirror-behind answer).
      expect([200, 202, 502]).toContain(edit.status)
      if (edit.status === 202) expect(edit.message).toBe(EDIT_MESSAGES.mirrorBehind)
      if (edit.status === 502) expect(edit.message).toMatch(/^SCORM Cloud/)
    }
    expect(edits.some((e) => e.status === 200)).toBe(true)

    // The simulator counts a request when it arrives, stalled ones included.
    sim.clearFaults()
    const stats = sim.stats()
    const attempts = client.attempts() - attemptsBefore
    expect(stats.faults.errors + stats.faults.rateLimited).toBeGreaterThan(0)
    expect(stats.total).toBe(attempts)
    const answered = stats.byStatus['200'] ?? 0
    const failedCalls =
      edits.filter((e) => e.status !== 200).length + outcome.results.filter((r) => r.status === 'failed').length
    expect(attempts).toBeGreaterThan(answered) // faults were retried...
    expect(attempts).toBeLessThanOrEqual(MAX_ATTEMPTS * (answered + failedCalls)) // ...within the budget

    // Each kind of the run is recorded as it ended, failures with the provider's message.
    const recorded = await t.database.db.select().from(syncRun).where(gt(syncRun.id, firstRun)).orderBy(syncRun.id)
    expect(recorded.map((r) => [r.kind, r.status, r.message])).toEqual(
      outcome.results.map((r) => [r.kind, r.status, r.message]),
    )
    expect(recorded.every((r) => r.finishedAt !== null)).toBe(true)
  })

  it('records a sync that the provider rate-limits beyond what the portal waits for', async () => {
    const { sim, t } = f
    await waitForClosedCircuit()
    // A Retry-After of 60 s is longer than the 30 s the client waits: the call fails at once.
    sim.setFaults({ rateLimitBurst: { every: 2, length: 1, retryAfterSeconds: 60 } })
    const res = await t.app.inject({ method: 'GET', url: '/api/dispatches/courses/sync', headers: f.admin })
    sim.clearFaults()
    expect(res.statusCode).toBe(502)
    expect(res.json()).toMatchObject({ message: 'SCORM Cloud: Too many requests (simulated rate limit)' })
    const [last] = await t.database.db
      .select()
      .from(syncRun)
      .where(eq(syncRun.kind, 'courses'))
      .orderBy(desc(syncRun.id))
      .limit(1)
    expect(last).toMatchObject({ status: 'failed', message: 'SCORM Cloud: Too many requests (simulated rate limit)' })
    const status = await t.app.inject({ method: 'GET', url: '/api/admin/sync/status', headers: f.admin })
    expect(status.json()).toMatchObject({
      runs: { courses: { status: 'failed' } },
      scormCloud: { lastError: 'SCORM Cloud: Too many requests (simulated rate limit)' },
    })
  })

  it('completes a later run once the faults are gone, with the mirror level with the provider', async () => {
    const { sim, t } = f
    await waitForClosedCircuit()
    const outcome = await appParts(t.app).sync!.run({ trigger: 'manual', full: true })
    expect(outcome.results.map((r) => [r.kind, r.status])).toEqual([
      ['courses', 'succeeded'],
      ['destinations', 'succeeded'],
      ['dispatches', 'succeeded'],
      ['registrations', 'succeeded'],
    ])
    const rows = await mirrorRows(t.database.db)
    const counts = sim.data.counts()
    expect(rows.registrations).toHaveLength(counts.registrations)
    expect(await t.database.db.select().from(dispatch).where(isNull(dispatch.removedAt))).toHaveLength(
      counts.dispatches,
    )
    const status = await t.app.inject({ method: 'GET', url: '/api/admin/sync/status', headers: f.admin })
    expect(status.json()).toMatchObject({ scormCloud: { reachable: true, circuit: 'closed', lastError: null } })
  })
})

/** The breaker may have opened under the faults: its 300 ms open period is skipped. */
async function waitForClosedCircuit() {
  const breaker = appParts(f.t.app).scormCloud!.breaker
  if (breaker.state === 'open') skipped += breaker.retryInMs()
  expect(breaker.state).not.toBe('open')
}
