import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { alertSettings, courseRequest } from '../../db/schema'
import { providerApp, type ProviderApp } from '../../modules/dispatches/dispatch-actions.test-support'

/**
 * A JSON body carries its own types: a one-element array is not the string or number a field
 * declares, nor is a lone value the list it declares (lib/validators.ts). Query strings keep
 * their coercion, since a parameter given once or twice is a string or an array by nature.
 */
let f: ProviderApp
let requestId: string
beforeAll(async () => {
  f = await providerApp()
  const [row] = await f.t.database.db
    .insert(courseRequest)
    .values({
      courseId: f.freeCourseId,
      courseTitle: 'Free course',
      companyId: f.companyId,
      requestorName: 'Client',
      requestorEmail: 'client@example.test',
      licenses: 5,
    })
    .returning({ id: courseRequest.id })
  requestId = row!.id
})
afterAll(async () => f.close())

const storedRequest = async () =>
  (await f.t.database.db.select().from(courseRequest).where(eq(courseRequest.id, requestId)))[0]!

describe('bodies: no array for a scalar, no scalar for an array', () => {
  it.each([
    ['mode', { mode: ['create'] }],
    ['registrationCap', { mode: 'create', registrationCap: [5] }],
  ])('POST /api/course-requests/:id/fulfil refuses %s as an array and fulfils nothing', async (field, payload) => {
    const dispatches = f.sim.data.counts().dispatches
    const res = await f.t.app.inject({
      method: 'POST',
      url: `/api/course-requests/${requestId}/fulfil`,
      headers: f.admin,
      payload,
    })
    expect(res.statusCode, res.body).toBe(400)
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field }] })
    expect(f.sim.data.counts().dispatches).toBe(dispatches)
    const row = await storedRequest()
    expect(row.status).toBe('PENDING')
    expect(row.dispatchId).toBeNull()
  })

  it('POST /api/course-requests refuses notes sent as an array', async () => {
    const before = (await f.t.database.db.select().from(courseRequest)).length
    const res = await f.t.app.inject({
      method: 'POST',
      url: '/api/course-requests',
      headers: f.client,
      payload: { courseId: f.freeCourseId, licenses: 2, notes: ['hello'] },
    })
    expect(res.statusCode, res.body).toBe(400)
    expect(res.json().details).toEqual([expect.objectContaining({ field: 'notes' })])
    expect((await f.t.database.db.select().from(courseRequest)).length).toBe(before)
  })

  it('PUT /api/admin/alert-settings refuses a lone number for a list', async () => {
    const before = await f.t.database.db.select().from(alertSettings)
    const res = await f.t.app.inject({
      method: 'PUT',
      url: '/api/admin/alert-settings',
      headers: f.admin,
      payload: { usageThresholds: 80, expiryDays: [30] },
    })
    expect(res.statusCode, res.body).toBe(400)
    expect(res.json().details).toEqual([expect.objectContaining({ field: 'usageThresholds' })])
    expect(await f.t.database.db.select().from(alertSettings)).toEqual(before)
  })

  it('a well-typed body still passes', async () => {
    const res = await f.t.app.inject({
      method: 'PUT',
      url: '/api/admin/alert-settings',
      headers: f.admin,
      payload: { usageThresholds: [80, 90, 100], expiryDays: [30, 7, 0] },
    })
    expect(res.statusCode, res.body).toBe(200)
  })
})

describe('query strings keep their coercion', () => {
  it('a list parameter given once is a list of one', async () => {
    const res = await f.t.app.inject({
      method: 'GET',
      url: `/api/notifications/dispatch-flags?ids=${encodeURIComponent(f.ownDispatchId)}`,
      headers: f.admin,
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({ nearCap: expect.any(Array), expiresSoon: expect.any(Array) })
  })

  it('numbers in the query are read from their text', async () => {
    const res = await f.t.app.inject({ method: 'GET', url: '/api/dispatches?page=1&pageSize=10', headers: f.admin })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().pagination).toMatchObject({ page: 1, pageSize: 10 })
  })
})
