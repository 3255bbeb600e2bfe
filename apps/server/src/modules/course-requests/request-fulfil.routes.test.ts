import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { courseRequest } from '../../db/schema'
import { providerApp, upstreamPair, type ProviderApp } from '../dispatches/dispatch-actions.test-support'
import { ScormCloudError } from '../scorm-cloud/scorm-cloud.errors'
import { appParts } from '../../app'

let f: ProviderApp
beforeAll(async () => {
  f = await providerApp()
})
afterAll(async () => f.close())
beforeEach(() => f.sim.clearFaults())

const fulfil = (id: string, payload: unknown, headers = f.admin) =>
  f.t.app.inject({ method: 'POST', url: `/api/course-requests/${id}/fulfil`, headers, payload: payload as object })

/** A PENDING request of the fixture client's company, written as the request form would. */
async function requestOf(courseId: string, licenses: number): Promise<string> {
  const [row] = await f.t.database.db
    .insert(courseRequest)
    .values({
      courseId,
      courseTitle: f.sim.data.getCourse(courseId)!.title!,
      companyId: f.companyId,
      requestorName: 'Client',
      requestorEmail: 'client@example.test',
      licenses,
    })
    .returning({ id: courseRequest.id })
  return row!.id
}
const stored = async (id: string) =>
  (await f.t.database.db.select().from(courseRequest).where(eq(courseRequest.id, id)))[0]!

/**
 * A getDispatch of the app's client fails as if the answer never came, after `skip` that pass:
 * the provider did act, the portal never heard back (the read-back after the write).
 */
function failRead(skip = 0) {
  const client = appParts(f.t.app).scormCloud!
  const original = client.getDispatch
  let left = skip
  client.getDispatch = async (id) => {
    if (left-- > 0) return original(id)
    client.getDispatch = original
    throw new ScormCloudError('SCORM Cloud did not answer in time.', 0, true)
  }
}

describe('POST /api/course-requests/:id/fulfil', () => {
  it('creates the dispatch for the requestor company with the licenses as cap, and links the request', async () => {
    const created = await f.t.app.inject({
      method: 'POST',
      url: '/api/course-requests',
      headers: f.client,
      payload: { courseId: f.freeCourseId, licenses: 25 },
    })
    expect(created.statusCode, created.body).toBe(201)
    const id = created.json().id
    const res = await fulfil(id, { mode: 'create' })
    expect(res.statusCode, res.body).toBe(200)
    const body = res.json()
    expect(body).toMatchObject({ id, status: 'PROCESSED', dispatchId: expect.any(String) })
    expect(f.sim.data.getDispatch(body.dispatchId)).toMatchObject({
      courseId: f.freeCourseId,
      destinationId: f.companyId,
      registrationCap: 25,
    })
    // The client's row links to the dispatch, which the client can open.
    const mine = await f.t.app.inject({ method: 'GET', url: '/api/course-requests', headers: f.client })
    expect(mine.json().find((r: { id: string }) => r.id === id)).toMatchObject({ dispatchId: body.dispatchId })
    const own = await f.t.app.inject({ method: 'GET', url: `/api/dispatches/${body.dispatchId}`, headers: f.client })
    expect(own.json()).toMatchObject({ registrationCap: 25, courseId: f.freeCourseId })
    expect((await f.activity('DISPATCH_CREATED'))[0]!.details).toMatchObject({
      dispatchId: body.dispatchId,
      requestId: id,
    })

    // Idempotent: the same action again answers the same request and creates nothing.
    const count = f.sim.data.counts().dispatches
    const again = await fulfil(id, { mode: 'create' })
    expect(again.statusCode).toBe(200)
    expect(again.json().dispatchId).toBe(body.dispatchId)
    expect(f.sim.data.counts().dispatches).toBe(count)
  })

  it('adds the requested licenses to the company dispatch of the course, once', async () => {
    const own = f.sim.data.getDispatch(f.ownDispatchId)!
    f.sim.touchDispatch(f.ownDispatchId, { registrationCap: 40 })
    await appParts(f.t.app).sync!.run({ trigger: 'manual' })
    const id = await requestOf(own.courseId!, 10)
    const listed = await f.t.app.inject({ method: 'GET', url: '/api/course-requests', headers: f.admin })
    expect(listed.json().find((r: { id: string }) => r.id === id).companyDispatch).toMatchObject({
      id: f.ownDispatchId,
      registrationCap: 40,
    })
    const res = await fulfil(id, { mode: 'add' })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toMatchObject({ status: 'PROCESSED', dispatchId: f.ownDispatchId })
    expect(f.sim.data.getDispatch(f.ownDispatchId)!.registrationCap).toBe(50)
    expect((await f.mirrorRow(f.ownDispatchId))!.registrationCap).toBe(50)
    expect((await fulfil(id, { mode: 'add' })).statusCode).toBe(200)
    expect(f.sim.data.getDispatch(f.ownDispatchId)!.registrationCap).toBe(50)
    const log = (await f.activity('DISPATCH_UPDATED'))[0]!
    expect(log.details).toMatchObject({ changes: { registrationCap: { before: 40, after: 50 } } })
  })

  it('converges after a partial failure of "create": a retry finishes the same dispatch, never a second', async () => {
    const { courseId } = freeCourseOfCompany()
    const id = await requestOf(courseId, 7)
    failRead(1) // the look-up before the create passes, the read after it fails
    const first = await fulfil(id, { mode: 'create' })
    expect(first.statusCode).toBe(502)
    // The provider holds the dispatch; the request is still PENDING, with its target kept.
    const [made] = upstreamPair(f.sim, f.companyId, courseId)
    expect(made).toBeTruthy()
    expect(await stored(id)).toMatchObject({ status: 'PENDING', fulfilDispatchId: made, dispatchId: null })
    // The next sync mirrors it meanwhile: the retry still finishes the same target.
    await appParts(f.t.app).sync!.run({ trigger: 'manual' })
    const retry = await fulfil(id, { mode: 'create' })
    expect(retry.statusCode, retry.body).toBe(200)
    expect(retry.json()).toMatchObject({ status: 'PROCESSED', dispatchId: made })
    expect(upstreamPair(f.sim, f.companyId, courseId)).toEqual([made])
    expect(await stored(id)).toMatchObject({ fulfilMode: null, fulfilDispatchId: null })
  })

  it('converges after a partial failure of "add": a retry sets the same cap, not twice the licenses', async () => {
    const d = f.sim.data.getDispatch(f.foreignDispatchId)!
    f.sim.touchDispatch(f.foreignDispatchId, { registrationCap: 30 })
    await appParts(f.t.app).sync!.run({ trigger: 'manual' })
    const [row] = await f.t.database.db
      .insert(courseRequest)
      .values({
        courseId: d.courseId!,
        courseTitle: d.courseTitle!,
        companyId: d.destinationId!,
        requestorName: 'Other',
        requestorEmail: 'other@example.test',
        licenses: 5,
      })
      .returning({ id: courseRequest.id })
    failRead() // the read after the cap change
    expect((await fulfil(row!.id, { mode: 'add' })).statusCode).toBe(502)
    expect(f.sim.data.getDispatch(f.foreignDispatchId)!.registrationCap).toBe(35)
    // A sync brings the mirror to 35 meanwhile; the retry must not add 5 again.
    await appParts(f.t.app).sync!.run({ trigger: 'manual' })
    const retry = await fulfil(row!.id, { mode: 'add' })
    expect(retry.statusCode, retry.body).toBe(200)
    expect(f.sim.data.getDispatch(f.foreignDispatchId)!.registrationCap).toBe(35)
    expect((await f.mirrorRow(f.foreignDispatchId))!.registrationCap).toBe(35)
  })

  it('refuses "create" when the company has the dispatch (409 naming it) and "add" when it has none', async () => {
    const own = f.sim.data.getDispatch(f.ownDispatchId)!
    const withDispatch = await requestOf(own.courseId!, 3)
    const conflict = await fulfil(withDispatch, { mode: 'create' })
    expect(conflict.statusCode).toBe(409)
    expect(conflict.json()).toMatchObject({ code: 'CONFLICT', dispatchId: f.ownDispatchId })
    const { courseId } = freeCourseOfCompany()
    const without = await requestOf(courseId, 3)
    const add = await fulfil(without, { mode: 'add' })
    expect(add.statusCode).toBe(400)
    expect(add.json().message).toMatch(/no dispatch of this course/)
    expect(await stored(without)).toMatchObject({ status: 'PENDING', fulfilMode: null })
  })

  it('leaves the request as it was when SCORM Cloud refuses for good', async () => {
    const { courseId } = freeCourseOfCompany()
    const id = await requestOf(courseId, 2)
    f.sim.setFaults({ errorRate: 1, errorStatuses: [500], onlyPaths: ['/dispatch/dispatches'] })
    const res = await fulfil(id, { mode: 'create' })
    f.sim.clearFaults()
    expect(res.statusCode).toBe(502)
    expect(upstreamPair(f.sim, f.companyId, courseId)).toEqual([])
    expect(await stored(id)).toMatchObject({ status: 'PENDING', dispatchId: null })
  })

  it('validates its input and is for admins only', async () => {
    const { courseId } = freeCourseOfCompany()
    const id = await requestOf(courseId, 2)
    for (const payload of [
      {},
      { mode: 'replace' },
      { mode: 'create', registrationCap: -1 },
      { mode: 'add', registrationCap: 1e8 },
    ]) {
      expect((await fulfil(id, payload)).statusCode, JSON.stringify(payload)).toBe(400)
    }
    expect((await fulfil('00000000-0000-4000-8000-000000000000', { mode: 'create' })).statusCode).toBe(404)
    expect((await fulfil('not-a-uuid', { mode: 'create' })).statusCode).toBe(404)
    for (const role of ['internal', 'sales', 'client'] as const) {
      const headers = (await f.t.loginAs(role, role === 'client' ? { companyId: f.companyId } : {})).headers
      expect((await fulfil(id, { mode: 'create' }, headers)).statusCode, role).toBe(403)
    }
    expect(upstreamPair(f.sim, f.companyId, courseId)).toEqual([])
    expect(await stored(id)).toMatchObject({ status: 'PENDING' })
  })
})

function freeCourseOfCompany(): { courseId: string } {
  const courseId = f.sim.data.listCourseIds().find((c) => upstreamPair(f.sim, f.companyId, c).length === 0)
  if (!courseId) throw new Error('no free course left')
  return { courseId }
}
