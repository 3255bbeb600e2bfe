import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CourseDetails, CourseListResponse } from '@portal/shared'
import { buildTestApp, type TestContext } from '../../test/helpers'
import { insertDispatches } from '../dispatches/dispatches.test-data'
import { activityOf, insertCourseSyncRun, insertCourses } from './courses.test-data'

type Headers = { 'x-auth-token': string }
let t: TestContext
const as: Record<'admin' | 'sales' | 'internal' | 'client' | 'clientB', Headers> = {} as never

const A = { destinationId: 'company-a', destinationName: 'Alpha Co' }
const B = { destinationId: 'company-b', destinationName: 'Bravo Co' }

beforeAll(async () => {
  t = await buildTestApp()
  for (const role of ['admin', 'sales', 'internal'] as const) as[role] = (await t.loginAs(role)).headers
  await t.createCompany('company-a', 'Alpha Co')
  await t.createCompany('company-b', 'Bravo Co')
  as.client = (await t.loginAs('client', { companyId: 'company-a' })).headers
  as.clientB = (await t.loginAs('client', { companyId: 'company-b' })).headers
  await insertCourses(t.database.db, [
    {
      id: 'c-alg',
      title: 'Algebra',
      version: 2,
      tags: ['math'],
      isVisible: true,
      appSource: '7',
      demoUrl: 'https://demo.example/alg',
      registrationCount: 12,
      providerCreated: new Date('2026-01-01T00:00:00.000Z'),
      providerUpdated: new Date('2026-02-01T00:00:00.000Z'),
    },
    { id: 'c-bio', title: 'Biology', isVisible: true, isRequestable: false },
    { id: 'c-che', title: 'Chemistry', isVisible: false, demoUrl: 'https://demo.example/che' },
    { id: 'c-gone', title: 'Removed', isVisible: true, removedAt: new Date() },
    { id: 'c-new', title: '', titleOverride: 'Admin Title', isVisible: true },
  ])
  await insertDispatches(t.database.db, [
    { id: 'd-1', ...A, courseId: 'c-alg', enabled: true, registrationCount: 5, registrationCap: 10 },
    { id: 'd-2', ...B, courseId: 'c-alg', enabled: false, registrationCount: 3, registrationCap: 0 },
    { id: 'd-3', ...A, courseId: 'c-alg', removedAt: new Date(), registrationCount: 100 },
    { id: 'd-4', ...B, courseId: 'c-bio', enabled: false, registrationCount: 2 },
  ])
  await insertCourseSyncRun(t.database.db, new Date('2026-03-01T10:00:00.000Z'))
  await insertCourseSyncRun(t.database.db, new Date('2026-03-02T10:00:00.000Z'), 'failed')
})
afterAll(async () => t.close())

const list = async (headers: Headers) => {
  const res = await t.app.inject({ method: 'GET', url: '/api/dispatches/courses', headers })
  expect(res.statusCode, res.body).toBe(200)
  return res.json<CourseListResponse>()
}
const details = (id: string, headers: Headers) =>
  t.app.inject({ method: 'GET', url: `/api/courses/${id}/details`, headers })

describe('GET /api/dispatches/courses', () => {
  it('is not captured by /api/dispatches/:id', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/dispatches/courses', headers: as.admin })
    expect(res.json()).toHaveProperty('courses')
  })

  it('gives admins every present course, hidden ones included, with appSource and the last sync', async () => {
    const body = await list(as.admin)
    expect(body.courses.map((c) => c.id)).toEqual(['c-new', 'c-alg', 'c-bio', 'c-che'])
    expect(body.lastSyncedAt).toBe('2026-03-01T10:00:00.000Z')
    expect(body.courses.find((c) => c.id === 'c-alg')).toEqual({
      id: 'c-alg',
      title: 'Algebra',
      summary: '',
      description: '',
      imageUrl: null,
      version: '2',
      duration: '',
      level: '',
      tags: ['math'],
      created: '2026-01-01T00:00:00.000Z',
      updated: '2026-02-01T00:00:00.000Z',
      registrationCount: 12,
      appSource: '7',
      isVisible: true,
      isRequestable: true,
    })
    // docs/product-rules.md §3 defaults: version 1.0; the admin's title over the provider's.
    expect(body.courses[0]).toMatchObject({ title: 'Admin Title', version: '1.0' })
  })

  it.each(['sales', 'internal', 'client'] as const)('never sends hidden courses or appSource to %s', async (role) => {
    const body = await list(as[role])
    expect(body.courses.map((c) => c.id)).toEqual(['c-new', 'c-alg', 'c-bio'])
    expect(body.courses.every((c) => !('appSource' in c))).toBe(true)
  })

  it('tells a client which courses are assigned to its company and which it can request', async () => {
    const flags = (b: CourseListResponse) => b.courses.map((c) => [c.id, c.assigned, c.requestable])
    expect(flags(await list(as.client))).toEqual([
      ['c-new', false, true],
      ['c-alg', true, false],
      ['c-bio', false, false], // not flagged requestable
    ])
    expect(flags(await list(as.clientB))).toEqual([
      ['c-new', false, true],
      ['c-alg', true, false], // a disabled dispatch still assigns it
      ['c-bio', true, false],
    ])
    const staff = await list(as.sales)
    expect(staff.courses.every((c) => !('requestable' in c) && !('assigned' in c))).toBe(true)
  })

  it('answers 401 without a token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/dispatches/courses' })
    expect(res.statusCode).toBe(401)
  })
})

describe('GET /api/courses/{id}/details', () => {
  it('gives admins the side panel, the dispatches, the demo link and hidden courses', async () => {
    const res = await details('c-alg', as.admin)
    expect(res.statusCode, res.body).toBe(200)
    const body = res.json<CourseDetails>()
    expect(body.stats).toEqual({ totalRegistrations: 8, activeDispatches: 1, totalDispatches: 2 })
    expect(body.dispatches).toEqual([
      {
        id: 'd-1',
        destinationId: 'company-a',
        destinationName: 'Alpha Co',
        enabled: true,
        registrationCount: 5,
        registrationCap: 10,
        created: '2026-01-02T03:04:05.000Z',
      },
      expect.objectContaining({ id: 'd-2', destinationName: 'Bravo Co', enabled: false, registrationCap: 0 }),
    ])
    expect(body.demoUrl).toBe('https://demo.example/alg')
    expect(body.appSource).toBe('7')
    expect((await details('c-che', as.admin)).json<CourseDetails>()).toMatchObject({ id: 'c-che', isVisible: false })
  })

  it.each(['sales', 'internal'] as const)('gives %s the side panel and dispatches but no demo link', async (role) => {
    const body = (await details('c-alg', as[role])).json<CourseDetails>()
    expect(body.stats).toEqual({ totalRegistrations: 8, activeDispatches: 1, totalDispatches: 2 })
    expect(body.dispatches).toHaveLength(2)
    expect(body).not.toHaveProperty('demoUrl')
    expect(body).not.toHaveProperty('appSource')
    expect(body).not.toHaveProperty('access')
  })

  it('gives a client its own access, never the dispatches of others', async () => {
    const body = (await details('c-alg', as.client)).json<CourseDetails>()
    expect(body).toMatchObject({ access: { registrations: 5, status: 'Active' }, canRequest: false, assigned: true })
    expect(body).not.toHaveProperty('stats')
    expect(body).not.toHaveProperty('dispatches')
    expect(body).not.toHaveProperty('demoUrl')
    const b = (await details('c-alg', as.clientB)).json<CourseDetails>()
    expect(b.access).toEqual({ registrations: 3, status: 'Inactive' })
    const none = (await details('c-new', as.client)).json<CourseDetails>()
    expect(none).toMatchObject({ access: null, canRequest: true })
  })

  it.each(['sales', 'internal', 'client'] as const)(
    'answers 404 to %s for hidden, removed and unknown',
    async (role) => {
      for (const id of ['c-che', 'c-gone', 'nope']) {
        const res = await details(id, as[role])
        expect(res.statusCode).toBe(404)
        expect(res.json()).toMatchObject({ message: 'Course not found' })
      }
    },
  )

  it('records COURSE_VIEWED with the viewer', async () => {
    await details('c-bio', as.sales)
    const rows = await activityOf(t.database.db, 'COURSE_VIEWED')
    expect(rows.some((r) => (r.details as { courseId: string }).courseId === 'c-bio')).toBe(true)
  })
})
