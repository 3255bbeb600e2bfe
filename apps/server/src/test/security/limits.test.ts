import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Role } from '@portal/shared'
import { insertCourses } from '../../modules/courses/courses.test-data'
import { insertDispatches } from '../../modules/dispatches/dispatches.test-data'
import { buildTestApp, type TestContext } from '../helpers'

/**
 * OWASP API4 (unrestricted resource consumption), ASVS V2.2: bodies, page sizes, strings and date
 * ranges are bounded, and going past a bound is a clear 400 (413 for the body) as JSON with a
 * message, before any work is done.
 */
let t: TestContext
const h = {} as Record<Role, { 'x-auth-token': string }>
beforeAll(async () => {
  t = await buildTestApp()
  for (const role of ['admin', 'client'] as const) h[role] = (await t.loginAs(role)).headers
  await insertCourses(t.database.db, [{ id: 'lim-course', isVisible: true }])
  await insertDispatches(t.database.db, [{ id: 'lim-d', destinationId: 'company-a' }])
})
afterAll(async () => t.close())

const long = (n: number) => 'x'.repeat(n)
type Case = [string, 'GET' | 'POST' | 'PUT', string, object | undefined, Role, number?]

const CASES: Case[] = [
  // Page sizes and pages
  ['dispatch page size off the list', 'GET', '/api/dispatches?pageSize=201', undefined, 'client'],
  ['dispatch page size huge', 'GET', '/api/dispatches?pageSize=1000000', undefined, 'admin'],
  ['dispatch page 0', 'GET', '/api/dispatches?page=0', undefined, 'admin'],
  ['dispatch page past the bound', 'GET', '/api/dispatches?page=1000001', undefined, 'admin'],
  ['report page size off the list', 'GET', '/api/reports/dispatch/lim-d?pageSize=500', undefined, 'admin'],
  ['log limit over 200', 'GET', '/api/logs?limit=201', undefined, 'admin'],
  ['log page negative', 'GET', '/api/logs?page=-1', undefined, 'admin'],
  // Ajv's coercion made Infinity of these, which reached the query as a 500.
  ['dispatch page 1e999', 'GET', '/api/dispatches?page=1e999', undefined, 'admin'],
  ['report page 1e999', 'GET', '/api/reports/dispatch/lim-d?page=1e999', undefined, 'admin'],
  ['log page 1e999', 'GET', '/api/logs?page=1e999', undefined, 'admin'],
  ['log limit 1e999', 'GET', '/api/logs?limit=1e999', undefined, 'admin'],
  ['log limit -1e999', 'GET', '/api/logs?limit=-1e999', undefined, 'admin'],
  // String lengths
  ['dispatch search over 200', 'GET', `/api/dispatches?search=${long(201)}`, undefined, 'admin'],
  ['report search over 200', 'GET', `/api/reports/dispatch/lim-d?search=${long(201)}`, undefined, 'admin'],
  ['log search over 200', 'GET', `/api/logs?searchTerm=${long(201)}`, undefined, 'admin'],
  // The router refuses a path parameter over 100 characters itself, with 414 and a message.
  ['id over 100', 'GET', `/api/dispatches/${long(101)}`, undefined, 'admin', 414],
  ['course title over 500', 'PUT', '/api/courses/lim-course/details', { title: long(501) }, 'admin'],
  ['course summary over 5000', 'PUT', '/api/courses/lim-course/details', { summary: long(5001) }, 'admin'],
  [
    'course demo link over 2048',
    'PUT',
    '/api/courses/lim-course/details',
    { demoUrl: `https://${long(2050)}` },
    'admin',
  ],
  ['request notes over 2000', 'POST', '/api/course-requests', { courseId: 'lim-course', notes: long(2001) }, 'client'],
  ['company name too long', 'PUT', '/api/admin/companies/company-a', { name: long(401) }, 'admin'],
  [
    'dispatch tags over 50',
    'PUT',
    '/api/dispatches/lim-d',
    { tags: Array.from({ length: 51 }, (_, i) => `t${i}`) },
    'admin',
  ],
  ['dispatch notes over 5000', 'PUT', '/api/dispatches/lim-d', { notes: long(5001) }, 'admin'],
  [
    'UI event details over 2000',
    'POST',
    '/api/logs/action',
    { action: 'HELP_BUTTON_CLICKED', details: long(2001) },
    'client',
  ],
  ['pathname over 2000', 'POST', '/api/logs/navigation', { pathname: `/${long(2000)}` }, 'client'],
  ['login email over 254', 'POST', '/api/auth/login', { email: `${long(250)}@e.test`, password: 'x' }, 'client'],
  ['login password over 1024', 'POST', '/api/auth/login', { email: 'a@e.test', password: long(1025) }, 'client'],
  ['refresh token over 4096', 'POST', '/api/auth/refresh-token', { refreshToken: long(4097) }, 'client'],
  ['new user email over 254', 'POST', '/api/users', { email: `${long(250)}@e.test`, role: 'admin' }, 'admin'],
  // Date ranges
  [
    'report end before start',
    'GET',
    '/api/reports/dispatch/lim-d?startDate=2026-03-02&endDate=2026-03-01',
    undefined,
    'admin',
  ],
  ['report impossible day', 'GET', '/api/reports/dispatch/lim-d?startDate=2026-02-30', undefined, 'admin'],
  ['report malformed day', 'GET', '/api/reports/dispatch/lim-d?endDate=01/02/2026', undefined, 'admin'],
  ['report year zero', 'GET', '/api/reports/dispatch/lim-d?startDate=0000-01-01', undefined, 'admin'],
  ['log end before start', 'GET', '/api/logs?startDate=2026-03-02&endDate=2026-03-01', undefined, 'admin'],
  ['log impossible day', 'GET', '/api/logs?endDate=2026-13-01', undefined, 'admin'],
  ['log year zero', 'GET', '/api/logs?startDate=0000-01-01', undefined, 'admin'],
  [
    'export end before start',
    'GET',
    '/api/logs/export.csv?startDate=2026-03-02&endDate=2026-03-01',
    undefined,
    'admin',
  ],
]

describe('limits', () => {
  it.each(CASES)('%s: 400 with a JSON message', async (_label, method, url, payload, role, status = 400) => {
    const res = await t.app.inject({ method, url, headers: h[role], ...(payload ? { payload } : {}) })
    expect(res.statusCode, res.body).toBe(status)
    const body = res.json()
    expect(typeof body.message).toBe('string')
    expect(body.message.length).toBeGreaterThan(0)
  })

  it('a body over 1 MiB is a 413 JSON on any route, signed in or not', async () => {
    for (const [url, headers] of [
      ['/api/course-requests', h.client],
      ['/api/auth/refresh-token', {}],
    ] as const) {
      const res = await t.app.inject({ method: 'POST', url, headers, payload: { notes: long(1_100_000) } })
      expect(res.statusCode).toBe(413)
      expect(res.json().message).toBe('The request body is too large.')
    }
  })

  it('the bounds themselves are accepted (control)', async () => {
    const ok = [
      `/api/dispatches?pageSize=200&search=${long(200)}`,
      '/api/logs?limit=200&startDate=2026-03-01&endDate=2026-03-01',
      '/api/reports/dispatch/lim-d?pageSize=100&startDate=2026-03-01&endDate=2026-03-01',
      // The last day both JavaScript and PostgreSQL hold (its next midnight is not).
      '/api/reports/dispatch/lim-d?startDate=1000-01-01&endDate=9999-12-31',
      '/api/logs?startDate=1000-01-01&endDate=9999-12-31',
      '/api/logs/export.csv?endDate=9999-12-31',
    ]
    for (const url of ok)
      expect((await t.app.inject({ method: 'GET', url, headers: h.admin })).statusCode, url).toBe(200)
  })
})
