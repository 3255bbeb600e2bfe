import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { activityLog, dispatch } from '../../db/schema'
import { providerFixture, readAll, type ProviderFixture } from './provider.test-support'
import { appParts } from '../../app'

/**
 * Reliability suite, part 2: SCORM Cloud down. The screens keep answering from the
 * mirror with the time of the last good sync; edits fail fast with 502 and the provider's
 * message, without touching the mirror or the log; once the provider is back the circuit
 * breaker lets a probe through and closes.
 */
let f: ProviderFixture
/** The breaker's clock: production's 30 s open period, passed by moving this forward. */
let clock = Date.now()
beforeAll(async () => {
  f = await providerFixture({ failureThreshold: 5, openMs: 30_000, now: () => clock })
})
afterAll(async () => f?.close())

const edit = (notes: string) =>
  f.t.app.inject({ method: 'PUT', url: `/api/dispatches/${f.dispatchId}`, headers: f.admin, payload: { notes } })
const status = async () =>
  (await f.t.app.inject({ method: 'GET', url: '/api/admin/sync/status', headers: f.admin })).json<{
    lastSuccessfulSyncAt: string | null
    scormCloud: { reachable: boolean; circuit: string; lastError: string | null }
  }>()
const mirrorNotes = async () =>
  (await f.t.database.db.select().from(dispatch).where(eq(dispatch.id, f.dispatchId)))[0]!.notes
const editRows = async () =>
  f.t.database.db.select().from(activityLog).where(eq(activityLog.action, 'DISPATCH_UPDATED'))

describe('SCORM Cloud down', () => {
  it('serves every read from the mirror with the last sync time, and fails edits fast with 502', async () => {
    const { sim, t } = f
    const before = await readAll(f)
    expect(before.filter((r) => r.status !== 200)).toEqual([])
    const lastSync = (await status()).lastSuccessfulSyncAt
    expect(lastSync).not.toBeNull()
    const notesBefore = await mirrorNotes()
    const rowsBefore = (await editRows()).length

    // First the provider answers, with an error: the admin sees its message.
    sim.setFaults({ errorRate: 1, errorStatuses: [503] })
    const refused = await edit('While failing')
    expect(refused.statusCode).toBe(502)
    expect(refused.json()).toEqual({
      code: 'UPSTREAM_FAILED',
      message: 'SCORM Cloud: Service temporarily unavailable (simulated)',
    })
    sim.clearFaults()

    // Then it is gone altogether.
    await sim.stop()
    const sync = await t.app.inject({ method: 'GET', url: '/api/dispatches/courses/sync', headers: f.admin })
    expect(sync.statusCode).toBe(502)
    expect(sync.json()).toMatchObject({
      message: expect.stringMatching(/^SCORM Cloud (could not be reached|is unavailable)/),
    })
    // 3 + 3 failed attempts: the circuit is open and the next edit makes no call at all.
    expect(appParts(t.app).scormCloud!.breaker.state).toBe('open')
    const attempts = appParts(t.app).scormCloud!.attempts()
    const fast = await edit('While down')
    expect(fast.statusCode).toBe(502)
    expect(fast.json<{ message: string }>().message).toMatch(
      /^SCORM Cloud is unavailable; the portal will try again in 30 s\.$/,
    )
    expect(appParts(t.app).scormCloud!.attempts()).toBe(attempts)

    const during = await readAll(f)
    expect(during.map((r) => [r.url, r.status])).toEqual(before.map((r) => [r.url, 200]))
    // The mirror's data, unchanged, and the time of the last good sync.
    const unchanged = (r: { url: string }) => !r.url.startsWith('/api/admin/sync/status')
    expect(during.filter(unchanged)).toEqual(before.filter(unchanged))
    const down = await status()
    expect(down).toMatchObject({ lastSuccessfulSyncAt: lastSync, scormCloud: { reachable: false, circuit: 'open' } })
    expect(down.scormCloud.lastError).toMatch(/^SCORM Cloud/)
    expect(await mirrorNotes()).toBe(notesBefore)
    expect(await editRows()).toHaveLength(rowsBefore)
  })

  it('closes the circuit once the provider is back, and edits and syncs work again', async () => {
    const { sim, t } = f
    await sim.start()
    const edits = (await editRows()).length
    clock += 29_000
    expect((await edit('Too early')).json<{ message: string }>().message).toBe(
      'SCORM Cloud is unavailable; the portal will try again in 1 s.',
    )
    clock += 1_000
    expect((await status()).scormCloud.circuit).toBe('half-open')

    const ok = await edit('After recovery')
    expect(ok.statusCode, ok.body).toBe(200)
    expect(ok.json()).toMatchObject({ id: f.dispatchId, notes: 'After recovery' })
    expect(appParts(t.app).scormCloud!.breaker.state).toBe('closed')
    expect(await mirrorNotes()).toBe('After recovery')
    expect(await editRows()).toHaveLength(edits + 1)

    const sync = await t.app.inject({ method: 'GET', url: '/api/dispatches/courses/sync', headers: f.admin })
    expect(sync.statusCode).toBe(200)
    const back = await status()
    expect(back.scormCloud).toEqual({ reachable: true, circuit: 'closed', lastError: null })
  })
})
