import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { CourseDetails, CourseListResponse, CourseRequest } from '@portal/shared'
import { courseRequest } from '../../db/schema'
import { buildTestApp, type TestContext } from '../../test/helpers'
import { insertDispatches } from '../dispatches/dispatches.test-data'
import { activityOf, insertCourses } from '../courses/courses.test-data'

type Headers = { 'x-auth-token': string }
let t: TestContext
const as = {} as Record<'admin' | 'sales' | 'internal' | 'client' | 'clientB' | 'clientA2', Headers>

beforeAll(async () => {
  t = await buildTestApp()
  for (const role of ['admin', 'sales', 'internal'] as const) as[role] = (await t.loginAs(role)).headers
  await t.createCompany('company-a', 'Alpha Co')
  await t.createCompany('company-b', 'Bravo Co')
  as.client = (await t.loginAs('client', { companyId: 'company-a' })).headers
  as.clientA2 = (await t.loginAs('client', { companyId: 'company-a' })).headers
  as.clientB = (await t.loginAs('client', { companyId: 'company-b' })).headers
  await insertCourses(t.database.db, [
    { id: 'c-open', title: 'Open Course', isVisible: true, demoUrl: 'https://demo.example/open' },
    { id: 'c-assigned', title: 'Assigned Course', isVisible: true },
    { id: 'c-hidden', title: 'Hidden Course', isVisible: false },
    { id: 'c-closed', title: 'Closed Course', isVisible: true, isRequestable: false },
  ])
  await insertDispatches(t.database.db, [
    { id: 'd-1', destinationId: 'company-a', destinationName: 'Alpha Co', courseId: 'c-assigned' },
  ])
})
beforeEach(async () => {
  await t.database.db.delete(courseRequest)
})
afterAll(async () => t.close())

const post = (payload: object, headers: Headers = as.client) =>
  t.app.inject({ method: 'POST', url: '/api/course-requests', payload, headers })
const list = (headers: Headers, query = '') =>
  t.app.inject({ method: 'GET', url: `/api/course-requests${query}`, headers })
const setStatus = (id: string, payload: object, headers: Headers = as.admin) =>
  t.app.inject({ method: 'PUT', url: `/api/course-requests/${id}/status`, payload, headers })
const create = async (payload: object = {}, headers: Headers = as.client) => {
  const res = await post({ courseId: 'c-open', licenses: 3, ...payload }, headers)
  expect(res.statusCode, res.body).toBe(201)
  return res.json<CourseRequest>()
}

describe('POST /api/course-requests', () => {
  it('creates a PENDING request with the course title and the user company, and logs it', async () => {
    const body = await create({
      courseTitle: 'Forged Title',
      companyId: 'company-b',
      destinationId: 'company-b',
      notes: 'Need it soon',
    })
    expect(body).toMatchObject({
      courseId: 'c-open',
      courseTitle: 'Open Course',
      licenses: 3,
      notes: 'Need it soon',
      status: 'PENDING',
      adminNotes: '',
      demoUrl: null,
      companyId: 'company-a',
      companyName: 'Alpha Co',
    })
    const [log] = await activityOf(t.database.db, 'COURSE_REQUEST_SUBMITTED')
    expect(log?.details).toMatchObject({ requestId: body.id, courseId: 'c-open', companyId: 'company-a' })
  })

  it.each([
    ['abc', 1],
    ['', 1],
    [null, 1],
    [undefined, 1],
    ['4', 4],
    [2.7, 2],
  ])('takes licenses %j as %i', async (licenses, expected) => {
    expect((await create({ licenses })).licenses).toBe(expected)
  })

  it.each([0, -2, '0', 1_000_001, 99_999_999_999, '99999999999', '1e11'])(
    'refuses licenses %j with the limits named, and stores nothing',
    async (licenses) => {
      const before = await t.database.db.select().from(courseRequest)
      const res = await post({ courseId: 'c-open', licenses })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toMatchObject({ message: 'Licenses must be a whole number from 1 to 1,000,000.' })
      expect(await t.database.db.select().from(courseRequest)).toHaveLength(before.length)
    },
  )

  it('takes the largest number of licenses allowed', async () => {
    expect((await create({ licenses: 1_000_000 })).licenses).toBe(1_000_000)
  })

  it('refuses notes over 2000 characters', async () => {
    expect((await post({ courseId: 'c-open', notes: 'n'.repeat(2001) })).statusCode).toBe(400)
  })

  it('answers 409 for a course already dispatched to the company, for any of its users', async () => {
    for (const headers of [as.client, as.clientA2]) {
      const res = await post({ courseId: 'c-assigned' }, headers)
      expect(res.statusCode).toBe(409)
      expect(res.json()).toMatchObject({ message: 'This course is already assigned to your account.' })
    }
    // Another company has no dispatch of it: it may request.
    await create({ courseId: 'c-assigned' }, as.clientB)
  })

  it('answers 409 for a course not flagged requestable', async () => {
    const res = await post({ courseId: 'c-closed' })
    expect(res.statusCode).toBe(409)
    expect(res.json()).toMatchObject({ message: 'This course is not available for request.' })
  })

  it('answers 404 for a hidden or unknown course, and writes nothing', async () => {
    for (const courseId of ['c-hidden', 'nope']) {
      expect((await post({ courseId })).statusCode).toBe(404)
    }
    expect(await t.database.db.select().from(courseRequest)).toEqual([])
  })

  it.each(['admin', 'sales', 'internal'] as const)('is refused to %s', async (role) => {
    expect((await post({ courseId: 'c-open' }, as[role])).statusCode).toBe(403)
    expect(await t.database.db.select().from(courseRequest)).toEqual([])
  })
})

describe('GET /api/course-requests', () => {
  it('gives admin and sales every request with requestor and company', async () => {
    await create()
    await create({}, as.clientB)
    for (const role of ['admin', 'sales'] as const) {
      const res = await list(as[role])
      expect(res.statusCode).toBe(200)
      const rows = res.json<CourseRequest[]>()
      expect(rows.map((r) => r.companyName).sort()).toEqual(['Alpha Co', 'Bravo Co'])
      expect(rows.every((r) => r.userName && r.userEmail)).toBe(true)
    }
  })

  it('gives a client only its own requests, never those of others (same company included)', async () => {
    const mine = await create()
    await create({}, as.clientA2)
    await create({}, as.clientB)
    const rows = (await list(as.client)).json<CourseRequest[]>()
    expect(rows.map((r) => r.id)).toEqual([mine.id])
  })

  it('never gives a client the requests of others, also when filtering by course', async () => {
    await create({}, as.clientA2)
    await create({ courseId: 'c-assigned' }, as.clientB)
    for (const query of ['', '?courseId=c-open', '?courseId=c-assigned']) {
      const res = await list(as.client, query)
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual([])
    }
  })

  it('filters by courseId', async () => {
    await create()
    await create({ courseId: 'c-assigned' }, as.clientB)
    const rows = (await list(as.admin, '?courseId=c-assigned')).json<CourseRequest[]>()
    expect(rows.map((r) => r.courseId)).toEqual(['c-assigned'])
  })

  it('answers 403 to internal users', async () => {
    const res = await list(as.internal)
    expect(res.statusCode).toBe(403)
  })
})

describe('PUT /api/course-requests/{id}/status', () => {
  it('lets an admin set any status with notes and the demo link, and logs it', async () => {
    const { id } = await create()
    const res = await setStatus(id, {
      status: 'PROCESSED',
      adminNotes: 'On its way',
      demoUrl: 'https://demo.example/x',
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toMatchObject({
      id,
      status: 'PROCESSED',
      adminNotes: 'On its way',
      demoUrl: 'https://demo.example/x',
    })
    expect((await setStatus(id, { status: 'PENDING' })).json()).toMatchObject({
      status: 'PENDING',
      adminNotes: 'On its way',
    })
    const logs = await activityOf(t.database.db, 'COURSE_REQUEST_STATUS_UPDATED')
    expect(logs.slice(-2).map((l) => l.details)).toEqual([
      expect.objectContaining({ requestId: id, before: 'PENDING', after: 'PROCESSED' }),
      expect.objectContaining({ requestId: id, before: 'PROCESSED', after: 'PENDING' }),
    ])
  })

  it.each(['sales', 'internal', 'client'] as const)('is refused to %s and changes nothing', async (role) => {
    const { id } = await create()
    expect((await setStatus(id, { status: 'COMPLETED' }, as[role])).statusCode).toBe(403)
    const [row] = await t.database.db.select().from(courseRequest)
    expect(row?.status).toBe('PENDING')
  })

  it('answers 404 for unknown ids and 400 for an unknown status or a bad demo URL', async () => {
    expect((await setStatus(randomUUID(), { status: 'COMPLETED' })).statusCode).toBe(404)
    expect((await setStatus('not-a-uuid', { status: 'COMPLETED' })).statusCode).toBe(404)
    const { id } = await create()
    expect((await setStatus(id, { status: 'APPROVED' })).statusCode).toBe(400)
    expect((await setStatus(id, { status: 'COMPLETED', demoUrl: 'javascript:alert(1)' })).statusCode).toBe(400)
  })
})

describe('the demo link reaches a client only once its request is PROCESSED or COMPLETED', () => {
  const demoOf = async (headers: Headers) =>
    (await t.app.inject({ method: 'GET', url: '/api/courses/c-open/details', headers })).json<CourseDetails>()

  it('in the details and in its request list', async () => {
    const { id } = await create()
    expect(await demoOf(as.client)).not.toHaveProperty('demoUrl')
    expect((await list(as.client)).json<CourseRequest[]>()[0]?.demoUrl).toBeNull()
    await setStatus(id, { status: 'PROCESSED' })
    expect((await demoOf(as.client)).demoUrl).toBe('https://demo.example/open')
    expect((await list(as.client)).json<CourseRequest[]>()[0]?.demoUrl).toBe('https://demo.example/open')
    await setStatus(id, { status: 'COMPLETED' })
    expect((await demoOf(as.client)).demoUrl).toBe('https://demo.example/open')
    // Another user of the same company has no request of its own: no link.
    expect(await demoOf(as.clientA2)).not.toHaveProperty('demoUrl')
    await setStatus(id, { status: 'PENDING' })
    expect(await demoOf(as.client)).not.toHaveProperty('demoUrl')
  })

  it('never through the catalogue, whatever the status', async () => {
    const catalogue = async (headers: Headers) =>
      (await t.app.inject({ method: 'GET', url: '/api/dispatches/courses', headers })).json<CourseListResponse>()
    const { id } = await create()
    await setStatus(id, { status: 'COMPLETED' })
    for (const headers of [as.client, as.clientB, as.sales, as.internal]) {
      const { courses } = await catalogue(headers)
      expect(courses.map((c) => c.id)).toContain('c-open')
      const open = courses.find((c) => c.id === 'c-open')
      expect(open).not.toHaveProperty('demoUrl')
    }
  })

  it('never to sales or internal in the details', async () => {
    const { id } = await create()
    await setStatus(id, { status: 'PROCESSED' })
    for (const headers of [as.sales, as.internal]) expect(await demoOf(headers)).not.toHaveProperty('demoUrl')
    expect((await demoOf(as.admin)).demoUrl).toBe('https://demo.example/open')
  })
})
