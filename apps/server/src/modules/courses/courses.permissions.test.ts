import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Role } from '@portal/shared'
import { buildTestApp, type TestContext } from '../../test/helpers'
import { insertCourses } from './courses.test-data'

/**
 * docs/architecture.md §7: every gated route of for every role: allowed roles get past the
 * permission check (any status but 401/403), denied roles get 403, and nobody gets in without a token.
 */
let t: TestContext
const headers = {} as Record<Role, { 'x-auth-token': string }>
const UNKNOWN_REQUEST = '00000000-0000-4000-8000-000000000000'

beforeAll(async () => {
  t = await buildTestApp()
  for (const role of ['admin', 'sales', 'internal', 'client'] as const) headers[role] = (await t.loginAs(role)).headers
  await insertCourses(t.database.db, [{ id: 'c-1', title: 'One', isVisible: true }])
})
afterAll(async () => t.close())

const ROUTES: { method: 'GET' | 'PUT' | 'POST'; url: string; payload?: object; allowed: Role[] }[] = [
  { method: 'GET', url: '/api/dispatches/courses', allowed: ['admin', 'sales', 'internal', 'client'] },
  { method: 'GET', url: '/api/courses/c-1/details', allowed: ['admin', 'sales', 'internal', 'client'] },
  { method: 'PUT', url: '/api/courses/c-1/details', payload: { summary: 's' }, allowed: ['admin'] },
  { method: 'PUT', url: '/api/courses/c-1/visibility', payload: { isVisible: true }, allowed: ['admin'] },
  { method: 'POST', url: '/api/course-requests', payload: { courseId: 'c-1' }, allowed: ['client'] },
  { method: 'GET', url: '/api/course-requests', allowed: ['admin', 'sales', 'client'] },
  {
    method: 'PUT',
    url: `/api/course-requests/${UNKNOWN_REQUEST}/status`,
    payload: { status: 'COMPLETED' },
    allowed: ['admin'],
  },
]

const ROLES: Role[] = ['admin', 'sales', 'internal', 'client']

describe.each(ROUTES)('$method $url', ({ method, url, payload, allowed }) => {
  it.each(ROLES)('for %s', async (role) => {
    const res = await t.app.inject({ method, url, payload, headers: headers[role] })
    if (allowed.includes(role)) expect([401, 403], `${role}: ${res.body}`).not.toContain(res.statusCode)
    else expect(res.statusCode, `${role}: ${res.body}`).toBe(403)
  })

  it('needs a token', async () => {
    expect((await t.app.inject({ method, url, payload })).statusCode).toBe(401)
  })
})
