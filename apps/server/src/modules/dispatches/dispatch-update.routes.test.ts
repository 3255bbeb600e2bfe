import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { startSimulator, type Simulator } from '@portal/scorm-cloud-sim'
import { activityLog, dispatch } from '../../db/schema'
import { buildTestApp, testConfig, type TestContext } from '../../test/helpers'
import { insertDispatches } from './dispatches.test-data'

let sim: Simulator
let t: TestContext
let admin: { 'x-auth-token': string }
let id: string

/** The admin controls against the real simulator over HTTP, through the real SCORM Cloud client. */
beforeAll(async () => {
  sim = await startSimulator({
    sizes: { courses: 3, destinations: 2, dispatches: 3, registrations: 6, bigDispatchRegistrations: 0 },
    pageSize: 7,
  })
  const scormCloud = { baseUrl: sim.url, appId: sim.appId, secretKey: sim.secretKey }
  t = await buildTestApp({ config: testConfig({ scormCloud }) })
  admin = (await t.loginAs('admin')).headers
  id = sim.data.listDispatchIds()[0]!
  const d = sim.touchDispatch(id, { enabled: true, tags: ['alpha', 'beta'], notes: '', registrationCap: 10 })
  await insertDispatches(t.database.db, [
    {
      id,
      courseId: d.courseId!,
      courseTitle: d.courseTitle!,
      destinationId: d.destinationId!,
      destinationName: d.destinationName!,
      enabled: true,
      registrationCount: d.registrationCount!,
      registrationCap: 10,
      tags: ['alpha', 'beta'],
      notes: '',
    },
    // In the mirror but gone upstream: the provider answers 404.
    { id: 'ghost', destinationId: d.destinationId!, courseId: d.courseId!, courseTitle: d.courseTitle! },
  ])
})
afterAll(async () => {
  await t.close()
  await sim.close()
})
beforeEach(() => sim.clearFaults())

const put = (dispatchId: string, payload: Record<string, unknown>, headers: Record<string, string> = admin) =>
  t.app.inject({ method: 'PUT', url: `/api/dispatches/${dispatchId}`, headers, payload })
const mirror = async (dispatchId = id) =>
  (await t.database.db.select().from(dispatch).where(eq(dispatch.id, dispatchId)))[0]!
const activity = async () => t.database.db.select().from(activityLog).where(eq(activityLog.action, 'DISPATCH_UPDATED'))

describe('PUT /api/dispatches/:id', () => {
  it('disables a dispatch upstream, then in the mirror, and logs DISPATCH_UPDATED with before and after', async () => {
    const before = (await activity()).length
    const res = await put(id, { enabled: false })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toMatchObject({ id, enabled: false, tags: ['alpha', 'beta'] })
    expect(sim.data.getDispatch(id)!.enabled).toBe(false)
    expect((await mirror()).enabled).toBe(false)
    const rows = await activity()
    expect(rows).toHaveLength(before + 1)
    expect(rows.at(-1)).toMatchObject({
      details: { dispatchId: id, changes: { enabled: { before: true, after: false } } },
    })
    expect(rows.at(-1)!.actorEmail).toMatch(/^admin-/)
  })

  it('changes cap, expiry, notes and tags in both places, and clears the expiry with null', async () => {
    const res = await put(id, {
      enabled: true,
      registrationCap: 42,
      expirationDate: '2027-06-30',
      notes: 'Renewed for 2027',
      tags: ['beta', 'gamma', 'gamma '],
    })
    expect(res.statusCode, res.body).toBe(200)
    const upstream = sim.data.getDispatch(id)!
    expect(upstream).toMatchObject({ enabled: true, registrationCap: 42, notes: 'Renewed for 2027' })
    expect(Date.parse(upstream.expirationDate!)).toBe(Date.parse('2027-06-30T00:00:00Z'))
    expect([...upstream.tags!].sort()).toEqual(['beta', 'gamma'])
    const row = await mirror()
    expect(row).toMatchObject({ enabled: true, registrationCap: 42, notes: 'Renewed for 2027' })
    expect(row.expirationDate?.toISOString()).toBe('2027-06-30T00:00:00.000Z')
    expect([...row.tags].sort()).toEqual(['beta', 'gamma'])
    expect(res.json()).toMatchObject({ registrationCap: 42, expirationDate: '2027-06-30T00:00:00.000Z' })
    expect((await activity()).at(-1)!.details).toMatchObject({
      changes: {
        registrationCap: { before: 10, after: 42 },
        expirationDate: { before: null, after: '2027-06-30T00:00:00.000Z' },
        notes: { before: '', after: 'Renewed for 2027' },
      },
    })

    const cleared = await put(id, { expirationDate: null })
    expect(cleared.statusCode, cleared.body).toBe(200)
    expect(cleared.json().expirationDate).toBeNull()
    expect(sim.data.getDispatch(id)!.expirationDate ?? null).toBeNull()
    expect((await mirror()).expirationDate).toBeNull()
  })

  it('refuses invalid input with 400 and calls SCORM Cloud not at all', async () => {
    const before = await mirror()
    sim.resetStats()
    for (const [payload, message] of [
      [{}, 'Nothing to update.'],
      [{ expirationDate: 'next tuesday' }, 'Invalid expiration date. Use YYYY-MM-DD or an ISO date-time.'],
      [{ expirationDate: '2027-02-30' }, 'Invalid expiration date. Use YYYY-MM-DD or an ISO date-time.'],
      [{ registrationCap: -1 }, null],
      [{ enabled: 'maybe' }, null],
      [{ tags: [''] }, null],
    ] as const) {
      const res = await put(id, payload)
      expect(res.statusCode, JSON.stringify(payload)).toBe(400)
      if (message) expect(res.json().message).toBe(message)
    }
    expect(sim.stats().total).toBe(0)
    expect(await mirror()).toEqual(before)
  })

  it('answers 502 with the provider’s message and changes nothing locally when SCORM Cloud refuses', async () => {
    const ghostBefore = await mirror('ghost')
    const logged = (await activity()).length
    const gone = await put('ghost', { enabled: false })
    expect(gone.statusCode).toBe(502)
    expect(gone.json().message).toBe('SCORM Cloud: Dispatch ghost not found')
    expect(await mirror('ghost')).toEqual(ghostBefore)

    const before = await mirror()
    sim.setFaults({ errorRate: 1, errorStatuses: [503] })
    const failing = await put(id, { enabled: !before.enabled, notes: 'never lands' })
    expect(failing.statusCode).toBe(502)
    expect(failing.json().message).toBe('SCORM Cloud: Service temporarily unavailable (simulated)')
    sim.clearFaults()
    expect(await mirror()).toEqual(before)
    expect(sim.data.getDispatch(id)!.notes).not.toBe('never lands')
    expect(await activity()).toHaveLength(logged)
  })

  it('is for admins only (403), needs a token (401), and is 404 outside the mirror', async () => {
    sim.resetStats()
    for (const role of ['internal', 'sales', 'client'] as const) {
      const { headers } = await t.loginAs(role)
      expect((await put(id, { enabled: false }, headers)).statusCode, role).toBe(403)
    }
    expect((await t.app.inject({ method: 'PUT', url: `/api/dispatches/${id}`, payload: {} })).statusCode).toBe(401)
    const unknown = await put('not-mirrored', { enabled: false })
    expect(unknown.statusCode).toBe(404)
    expect(unknown.json().message).toBe('Dispatch not found')
    expect(sim.stats().total).toBe(0)
  })
})
