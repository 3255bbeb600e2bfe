import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq, like } from 'drizzle-orm'
import { activityLog, company, loginThrottle } from '../../db/schema'
import { nestsDeeperThan } from '../../lib/json-bounds'
import { findInputProblem } from '../../plugins/app/input-guard'
import { insertCourses } from '../../modules/courses/courses.test-data'
import { buildTestApp, type TestContext } from '../helpers'

/**
 * the cases the issue names, one by one (the generated suite in test/bad-input
 * sends every class to every input): each is a 400 naming the field and changes nothing.
 */
let t: TestContext
let admin: { 'x-auth-token': string }
beforeAll(async () => {
  t = await buildTestApp()
  admin = (await t.loginAs('admin')).headers
  await t.createCompany('guard-co', 'Guard Company')
  await insertCourses(t.database.db, [{ id: 'guard-course', isVisible: true }])
})
afterAll(async () => t.close())

const send = (method: 'POST' | 'PUT', url: string, json: string, headers: Record<string, string> = admin) =>
  t.app.inject({ method, url, headers: { ...headers, 'content-type': 'application/json' }, payload: json })
const count = async () => (await t.database.db.select().from(activityLog)).length

describe('the input guard (every route)', () => {
  it.each([
    ['POST', '/api/logs/navigation', '{"pathname":"/a\\ud800"}', 'pathname'],
    [
      'POST',
      '/api/users',
      '{"email":"x\\udfff@example.test","password":"a-long-enough-password","role":"admin"}',
      'email',
    ],
    ['POST', '/api/logs/action', '{"action":"HELP_BUTTON_CLICKED","details":"help \\ud83d"}', 'details'],
    ['POST', '/api/logs/action', '{"action":"HELP_BUTTON_CLICKED","details":{"\\udc00":1}}', 'details/\ufffd'],
    ['PUT', '/api/admin/companies/guard-co', '{"name":"Guard \\ud800 Co"}', 'name'],
    ['PUT', '/api/courses/guard-course/details', '{"title":"\\udfff"}', 'title'],
  ] as const)('%s %s with a lone surrogate: 400 naming %s, nothing written', async (method, url, json, field) => {
    const before = await count()
    const res = await send(method, url, json)
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field }] })
    expect(res.json().details[0].message).toMatch(/must not contain an unpaired UTF-16 surrogate \(invalid Unicode\)$/)
    expect(await count()).toBe(before)
    const [row] = await t.database.db.select().from(company).where(eq(company.id, 'guard-co'))
    expect(row!.name).toBe('Guard Company')
  })

  it('sign-in with a lone surrogate: 400, no LOGIN_FAILED row and no throttle count', async () => {
    const res = await send('POST', '/api/auth/login', '{"email":"who\\ud800@example.test","password":"whatever"}', {})
    expect(res.statusCode).toBe(400)
    expect(res.json().details).toEqual([
      { field: 'email', message: 'must not contain an unpaired UTF-16 surrogate (invalid Unicode)' },
    ])
    expect(await t.database.db.select().from(activityLog).where(eq(activityLog.action, 'LOGIN_FAILED'))).toEqual([])
    expect(await t.database.db.select().from(loginThrottle).where(like(loginThrottle.key, 'account:who%'))).toEqual([])
  })

  it('details nested 5,000 levels: 400 naming the field, nothing written', async () => {
    const before = await count()
    const deep = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`
    const res = await send('POST', '/api/logs/action', `{"action":"HELP_BUTTON_CLICKED","details":${deep}}`)
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toMatch(/^body\/details\/a\/a.* must not be nested more than 32 levels deep\.$/)
    // Within the request's depth, the field's own bounds apply (4 levels, 4,000 characters).
    const five = `{"a":{"b":{"c":{"d":{"e":1}}}}}`
    const shallow = await send('POST', '/api/logs/action', `{"action":"HELP_BUTTON_CLICKED","details":${five}}`)
    expect(shallow.statusCode).toBe(400)
    expect(shallow.json().details).toContainEqual({
      field: 'details',
      message: 'must not be nested more than 4 levels deep',
    })
    const big = JSON.stringify({ text: 'x'.repeat(4000) })
    const wide = await send('POST', '/api/logs/action', `{"action":"HELP_BUTTON_CLICKED","details":${big}}`)
    expect(wide.json().details).toContainEqual({
      field: 'details',
      message: 'must not be longer than 4000 characters as JSON',
    })
    expect(await count()).toBe(before)
    const ok = await send('POST', '/api/logs/action', '{"action":"HELP_BUTTON_CLICKED","details":{"a":{"b":{"c":1}}}}')
    expect(ok.statusCode).toBe(201)
  })

  it('a JSON number that overflows (1e999 parses as Infinity) is a 400 where a schema takes any value', async () => {
    const client = (await t.loginAs('client', { companyId: 'guard-co' })).headers
    const before = await count()
    const refused = await send('POST', '/api/course-requests', '{"courseId":"guard-course","licenses":1e999}', client)
    expect(refused.statusCode).toBe(400)
    expect(refused.json().details).toEqual([{ field: 'licenses', message: 'must be a finite number' }])
    expect(await count()).toBe(before)
  })
})

describe('API answers are not cached', () => {
  it('tokens and signed-in answers carry Cache-Control: no-store; the documentation does not', async () => {
    const user = await t.createUser('internal')
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: 'correct-horse-battery-staple' },
    })
    expect(login.statusCode).toBe(200)
    expect(login.headers['cache-control']).toBe('no-store')
    const refresh = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh-token',
      payload: { refreshToken: login.json().refreshToken },
    })
    expect(refresh.statusCode).toBe(200)
    expect(refresh.headers['cache-control']).toBe('no-store')
    for (const url of ['/api/auth/me', '/api/dispatches', '/api/users', '/api/no-such-route']) {
      const res = await t.app.inject({ method: 'GET', url, headers: admin })
      expect(res.headers['cache-control'], url).toBe('no-store')
    }
    const docs = await t.app.inject({ method: 'GET', url: '/api/docs/json' })
    expect(docs.headers['cache-control']).not.toBe('no-store')
  })
})

describe('findInputProblem and nestsDeeperThan', () => {
  it('name the first offending field, and pass well-formed input of any script', () => {
    expect(findInputProblem({ a: 'fine 😀 ü 中文', b: [1, 2.5, -0], c: { d: null, e: true } })).toBeNull()
    expect(findInputProblem({ a: 'ok', tags: ['x', 'y\u0000'] })).toEqual({
      field: 'tags/1',
      message: 'must not contain a NUL character',
    })
    expect(findInputProblem({ n: Number.NEGATIVE_INFINITY })).toEqual({
      field: 'n',
      message: 'must be a finite number',
    })
    expect(findInputProblem({ '\ud800x': 1 })?.message).toBe(
      'has a name that must not contain an unpaired UTF-16 surrogate (invalid Unicode)',
    )
    let deep: unknown = 1
    for (let i = 0; i < 100_000; i += 1) deep = [deep]
    expect(findInputProblem({ deep })?.message).toBe('must not be nested more than 32 levels deep')
    expect(nestsDeeperThan(deep, 99_999)).toBe(true)
    expect(nestsDeeperThan(deep, 100_000)).toBe(false)
    expect(nestsDeeperThan('scalar', 0)).toBe(false)
    expect(nestsDeeperThan({}, 0)).toBe(true)
  })
})
