import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { and, eq } from 'drizzle-orm'
import { dispatch } from '../../db/schema'
import { providerApp, upstreamPair, type ProviderApp } from './dispatch-actions.test-support'

let f: ProviderApp
beforeAll(async () => {
  f = await providerApp()
})
afterAll(async () => f.close())
beforeEach(() => f.sim.clearFaults())

const post = (payload: unknown, headers = f.admin) =>
  f.t.app.inject({ method: 'POST', url: '/api/dispatches', headers, payload: payload as object })

/** A course the company has no dispatch of, upstream or in the mirror. */
function freeCourse(companyId = f.companyId): string {
  const id = f.sim.data.listCourseIds().find((c) => upstreamPair(f.sim, companyId, c).length === 0)
  if (!id) throw new Error('no free course left')
  return id
}
/** A free pair of any company (the small world runs out of free courses for one company). */
function freePair(): { companyId: string; courseId: string } {
  for (const companyId of f.sim.data.listDestinationIds()) {
    const courseId = f.sim.data.listCourseIds().find((c) => upstreamPair(f.sim, companyId, c).length === 0)
    if (courseId) return { companyId, courseId }
  }
  throw new Error('no free pair left')
}
const mirrorPair = (companyId: string, courseId: string) =>
  f.t.database.db
    .select({ id: dispatch.id })
    .from(dispatch)
    .where(and(eq(dispatch.destinationId, companyId), eq(dispatch.courseId, courseId)))

describe('POST /api/dispatches', () => {
  it('creates the dispatch at SCORM Cloud, mirrors it at once and answers it as GET does (201)', async () => {
    const courseId = freeCourse()
    // The dashboard was read before: its cached page must not hide the new row.
    const listBefore = await f.t.app.inject({ method: 'GET', url: '/api/dispatches?pageSize=200', headers: f.admin })
    const logged = (await f.activity('DISPATCH_CREATED')).length
    const res = await post({
      companyId: f.companyId,
      courseId,
      registrationCap: 25,
      expirationDate: '2031-06-30',
      enabled: true,
      notes: '  First cohort  ',
      tags: ['pilot', ' pilot ', 'q3'],
    })
    expect(res.statusCode, res.body).toBe(201)
    const created = res.json()
    expect(created).toMatchObject({
      courseId,
      destinationId: f.companyId,
      registrationCap: 25,
      registrationCount: 0,
      enabled: true,
      expirationDate: '2031-06-30T00:00:00.000Z',
      notes: 'First cohort',
      tags: ['pilot', 'q3'],
    })
    const get = await f.t.app.inject({ method: 'GET', url: `/api/dispatches/${created.id}`, headers: f.admin })
    expect(get.json()).toEqual(created)
    expect(f.sim.data.getDispatch(created.id)).toMatchObject({ registrationCap: 25, notes: 'First cohort' })
    expect(upstreamPair(f.sim, f.companyId, courseId)).toEqual([created.id])

    const listAfter = await f.t.app.inject({ method: 'GET', url: '/api/dispatches?pageSize=200', headers: f.admin })
    expect(listAfter.json().pagination.totalItems).toBe(listBefore.json().pagination.totalItems + 1)
    expect(listAfter.json().dispatches.map((d: { id: string }) => d.id)).toContain(created.id)
    const log = await f.activity('DISPATCH_CREATED')
    expect(log).toHaveLength(logged + 1)
    expect(log[0]!.details).toMatchObject({ dispatchId: created.id, companyId: f.companyId, courseId })
  })

  it('is a 409 naming the existing dispatch for a pair that exists, and changes nothing', async () => {
    const existing = f.sim.data.getDispatch(f.ownDispatchId)!
    const before = f.sim.data.getDispatch(f.ownDispatchId)
    const count = f.sim.data.counts().dispatches
    const res = await post({ companyId: f.companyId, courseId: existing.courseId, registrationCap: 99 })
    expect(res.statusCode).toBe(409)
    expect(res.json()).toMatchObject({ code: 'CONFLICT', dispatchId: f.ownDispatchId })
    expect(res.json().message).toMatch(/already has a dispatch of/)
    expect(f.sim.data.counts().dispatches).toBe(count)
    expect(f.sim.data.getDispatch(f.ownDispatchId)).toEqual(before)
  })

  it('is a 409 for a pair made upstream but not yet synced, and mirrors that dispatch so the link works', async () => {
    const courseId = freeCourse()
    const made = await fetch(`${f.sim.url}/dispatch/dispatches`, {
      method: 'POST',
      headers: { Authorization: f.sim.authorization, 'Content-Type': 'application/json' },
      body: JSON.stringify({ dispatches: [{ id: 'made-upstream', data: { courseId, destinationId: f.companyId } }] }),
    })
    expect(made.status).toBe(204)
    expect(await mirrorPair(f.companyId, courseId)).toEqual([])
    const res = await post({ companyId: f.companyId, courseId })
    expect(res.statusCode).toBe(409)
    expect(res.json().dispatchId).toBe('made-upstream')
    const get = await f.t.app.inject({ method: 'GET', url: '/api/dispatches/made-upstream', headers: f.admin })
    expect(get.statusCode).toBe(200)
  })

  it('leaves nothing local when SCORM Cloud refuses the create (502 with its message)', async () => {
    const courseId = freeCourse()
    const logged = (await f.activity('DISPATCH_CREATED')).length
    f.sim.setFaults({ errorRate: 1, errorStatuses: [500], onlyPaths: ['/dispatch/dispatches'] })
    const res = await post({ companyId: f.companyId, courseId })
    f.sim.clearFaults()
    expect(res.statusCode).toBe(502)
    expect(res.json().message).toMatch(/SCORM Cloud/)
    expect(await mirrorPair(f.companyId, courseId)).toEqual([])
    expect(upstreamPair(f.sim, f.companyId, courseId)).toEqual([])
    expect(await f.activity('DISPATCH_CREATED')).toHaveLength(logged)
  })

  it('converges when the provider accepted but the mirror write did not happen: a retry names the dispatch', async () => {
    const courseId = freeCourse()
    // POST /dispatch/dispatches succeeds; the read-back GET /dispatch/dispatches/{id} fails.
    f.sim.setFaults({ errorRate: 1, errorStatuses: [503], onlyPaths: ['/dispatch/dispatches/'] })
    const first = await post({ companyId: f.companyId, courseId, registrationCap: 5 })
    f.sim.clearFaults()
    expect(first.statusCode).toBe(502)
    const [upstreamId] = upstreamPair(f.sim, f.companyId, courseId)
    expect(upstreamId).toBeTruthy()
    const retry = await post({ companyId: f.companyId, courseId, registrationCap: 5 })
    expect(retry.statusCode).toBe(409)
    expect(retry.json().dispatchId).toBe(upstreamId)
    expect(await mirrorPair(f.companyId, courseId)).toEqual([{ id: upstreamId }])
    expect(upstreamPair(f.sim, f.companyId, courseId)).toHaveLength(1)
  })

  it.each([
    ['no company', { courseId: 'c' }, 'companyId'],
    ['a negative cap', { companyId: 'x', courseId: 'c', registrationCap: -1 }, 'registrationCap'],
    ['a cap past the bound', { companyId: 'x', courseId: 'c', registrationCap: 10_000_001 }, 'registrationCap'],
    ['too many tags', { companyId: 'x', courseId: 'c', tags: Array.from({ length: 51 }, (_, i) => `t${i}`) }, 'tags'],
    ['a long note', { companyId: 'x', courseId: 'c', notes: 'n'.repeat(5001) }, 'notes'],
    ['an empty company id', { companyId: '', courseId: 'c' }, 'companyId'],
  ])('answers 400 naming the field for %s, and sends nothing upstream', async (_label, payload, field) => {
    f.sim.resetStats()
    const res = await post(payload)
    expect(res.statusCode).toBe(400)
    expect(JSON.stringify(res.json().details ?? res.json().message)).toContain(field)
    expect(f.sim.stats().byPath['POST /dispatch/dispatches'] ?? 0).toBe(0)
  })

  it('answers 400 for an unknown company or course and an invalid expiry date, naming the field', async () => {
    const cases = [
      [{ companyId: 'no-such-company', courseId: freePair().courseId }, 'companyId'],
      [{ companyId: f.companyId, courseId: 'no-such-course' }, 'courseId'],
      [{ ...freePair(), expirationDate: '2031-02-30' }, 'expirationDate'],
    ] as const
    for (const [payload, field] of cases) {
      const res = await post(payload)
      expect(res.statusCode, JSON.stringify(payload)).toBe(400)
      expect(res.json().details).toEqual([{ field, message: expect.any(String) }])
    }
  })

  it('is for admins only', async () => {
    const payload = freePair()
    for (const role of ['internal', 'sales', 'client'] as const) {
      const headers = (await f.t.loginAs(role, role === 'client' ? { companyId: f.companyId } : {})).headers
      expect((await post(payload, headers)).statusCode, role).toBe(403)
    }
    expect((await f.t.app.inject({ method: 'POST', url: '/api/dispatches', payload })).statusCode).toBe(401)
    expect(upstreamPair(f.sim, payload.companyId, payload.courseId)).toEqual([])
  })
})
