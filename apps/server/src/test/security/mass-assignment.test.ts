import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { desc, eq } from 'drizzle-orm'
import type { Role } from '@portal/shared'
import { activityLog, appUser, company, course, courseRequest } from '../../db/schema'
import { insertCourses } from '../../modules/courses/courses.test-data'
import { buildTestApp, type TestContext, type TestUser } from '../helpers'

/**
 * OWASP API3 (broken object property level authorisation), ASVS V15.3: no caller sets a field
 * it does not own. Non-admins are refused the admin routes outright (the access matrix), and a
 * refused call changes nothing; on the routes they may call, and on the admin's, fields the
 * route does not declare are dropped (Ajv removeAdditional) and change nothing.
 */
let t: TestContext
const as = {} as Record<Role, { user: TestUser; headers: { 'x-auth-token': string } }>
beforeAll(async () => {
  t = await buildTestApp()
  await t.createCompany('ma-own', 'Own')
  await t.createCompany('ma-other', 'Other')
  for (const role of ['admin', 'internal', 'sales', 'client'] as const) {
    as[role] = await t.loginAs(role, role === 'client' ? { companyId: 'ma-own' } : {})
  }
  await insertCourses(t.database.db, [
    { id: 'ma-course', title: 'Mass', isVisible: true, isRequestable: true },
    { id: 'ma-hidden', title: 'Hidden', isVisible: false },
  ])
})
afterAll(async () => t.close())

const db = () => t.database.db
const userRow = async (id: string) => (await db().select().from(appUser).where(eq(appUser.id, id)))[0]!
const courseRowOf = async (id: string) => (await db().select().from(course).where(eq(course.id, id)))[0]!
const companyRow = async (id: string) => (await db().select().from(company).where(eq(company.id, id)))[0]!
const send = (role: Role, method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: as[role].headers, ...(payload ? { payload } : {}) })

describe('non-admins cannot set privileged fields through any route', () => {
  it.each(['internal', 'sales', 'client'] as const)(
    '%s: role, companyId, status, isVisible and company fields are refused with 403 and unchanged',
    async (role) => {
      const self = as[role].user
      const before = { user: await userRow(self.id), course: await courseRowOf('ma-hidden') }
      const before2 = await companyRow('ma-other')
      const attempts = [
        send(role, 'PUT', `/api/users/${self.id}`, { role: 'admin', companyId: 'ma-other' }),
        send(role, 'PUT', `/api/users/${self.id}/status`, { status: 'active' }),
        send(role, 'POST', '/api/users', { email: `x-${role}@e.test`, password: 'long-enough-pass-1', role: 'admin' }),
        send(role, 'PUT', '/api/courses/ma-hidden/visibility', { isVisible: true }),
        send(role, 'PUT', '/api/courses/ma-hidden/details', { isRequestable: false, demoUrl: 'https://evil.test' }),
        send(role, 'PUT', '/api/admin/companies/ma-other', { name: 'Pwned', accountManagerId: self.id }),
        send(role, 'PUT', '/api/dispatches/any', { enabled: false, notes: 'x' }),
      ]
      for (const res of await Promise.all(attempts)) expect(res.statusCode, res.body).toBe(403)
      expect(await userRow(self.id)).toEqual(before.user)
      expect(await courseRowOf('ma-hidden')).toEqual(before.course)
      expect(await companyRow('ma-other')).toEqual(before2)
    },
  )

  it('a client’s course request takes company, user, status and demo link from the server, never the body', async () => {
    const res = await send('client', 'POST', '/api/course-requests', {
      courseId: 'ma-course',
      licenses: 3,
      notes: 'please',
      companyId: 'ma-other',
      destinationId: 'ma-other',
      userId: as.admin.user.id,
      status: 'COMPLETED',
      adminNotes: 'approved by myself',
      demoUrl: 'https://evil.test/demo',
      requestorEmail: 'ceo@other.test',
      courseTitle: 'A title of my own',
      id: '00000000-0000-4000-8000-000000000001',
    })
    expect(res.statusCode, res.body).toBe(201)
    const [row] = await db().select().from(courseRequest).where(eq(courseRequest.id, res.json().id))
    expect(row).toMatchObject({
      companyId: 'ma-own',
      userId: as.client.user.id,
      status: 'PENDING',
      adminNotes: '',
      demoUrl: null,
      requestorEmail: as.client.user.email,
      courseTitle: 'Mass',
      licenses: 3,
    })
    expect(row!.id).not.toBe('00000000-0000-4000-8000-000000000001')
  })

  it('a UI event cannot claim another user, IP, time or a server-only action', async () => {
    const res = await send('sales', 'POST', '/api/logs/action', {
      action: 'HELP_BUTTON_CLICKED',
      details: 'help',
      userId: as.admin.user.id,
      ipAddress: '203.0.113.9',
      createdAt: '2000-01-01T00:00:00Z',
      actorEmail: as.admin.user.email,
    })
    expect(res.statusCode).toBeLessThan(300)
    const [row] = await db().select().from(activityLog).orderBy(desc(activityLog.id)).limit(1)
    expect(row).toMatchObject({ userId: as.sales.user.id, actorEmail: as.sales.user.email, ipAddress: '127.0.0.1' })
    expect(row!.createdAt.getFullYear()).toBeGreaterThan(2000)
  })

  it('a login or refresh body cannot pick the user, role or session', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: as.client.user.email, password: 'wrong-password-xyz', role: 'admin', userId: as.admin.user.id },
    })
    expect(res.statusCode).toBe(401)
  })
})

describe('admin routes drop fields they do not declare', () => {
  it('PUT /api/users/{id}: password hash, token version, status, id and dates are not settable', async () => {
    const target = await t.createUser('internal')
    const before = await userRow(target.id)
    const res = await send('admin', 'PUT', `/api/users/${target.id}`, {
      name: 'New Name',
      passwordHash: 'x',
      tokenVersion: 99,
      status: 'suspended',
      id: '00000000-0000-4000-8000-000000000002',
      createdAt: '2000-01-01T00:00:00Z',
      lastLogin: '2000-01-01T00:00:00Z',
    })
    expect(res.statusCode).toBe(200)
    const after = await userRow(target.id)
    expect(after).toMatchObject({ ...before, name: 'New Name', updatedAt: expect.any(Date) })
  })

  it('PUT /api/courses/{id}/details: visibility, provider fields and appSource stay as they were', async () => {
    const before = await courseRowOf('ma-hidden')
    const res = await send('admin', 'PUT', '/api/courses/ma-hidden/details', {
      summary: 'New summary',
      isVisible: true,
      appSource: '999',
      registrationCount: 12345,
      version: 42,
      tags: ['injected'],
      removedAt: '2000-01-01T00:00:00Z',
    })
    expect(res.statusCode).toBe(200)
    const after = await courseRowOf('ma-hidden')
    expect(after.summary).toBe('New summary')
    expect(after).toMatchObject({
      isVisible: false,
      appSource: before.appSource,
      registrationCount: before.registrationCount,
      version: before.version,
      tags: before.tags,
      removedAt: null,
    })
  })

  it('PUT /api/admin/companies/{id}: the id and sync fields stay as they were', async () => {
    const res = await send('admin', 'PUT', '/api/admin/companies/ma-own', {
      name: 'Own Renamed',
      id: 'ma-other',
      removedAt: '2000-01-01T00:00:00Z',
      syncedAt: '2000-01-01T00:00:00Z',
    })
    expect(res.statusCode).toBe(200)
    const row = await companyRow('ma-own')
    expect(row).toMatchObject({ id: 'ma-own', removedAt: null, syncedAt: null })
    expect((await companyRow('ma-other')).name).toBe('Other')
  })
})

describe('JSON bodies cannot pollute prototypes', () => {
  it.each([
    '{"action":"HELP_BUTTON_CLICKED","__proto__":{"polluted":true}}',
    '{"action":"HELP_BUTTON_CLICKED","constructor":{"prototype":{"polluted":true}}}',
  ])('refuses %s with 400 JSON', async (body) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/logs/action',
      headers: { ...as.sales.headers, 'content-type': 'application/json' },
      payload: body,
    })
    expect(res.statusCode).toBe(400)
    expect(typeof res.json().message).toBe('string')
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})
