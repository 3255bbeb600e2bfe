import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { desc } from 'drizzle-orm'
import type { LogListResponse } from '@portal/shared'
import { activityLog } from '../../db/schema'
import { buildTestApp, type TestContext } from '../../test/helpers'
import { insertLogs } from './logs.test-support'

let t: TestContext
let admin: { 'x-auth-token': string }
const ADA = '00000000-0000-4000-8000-00000000000a'
const BOB = '00000000-0000-4000-8000-00000000000b'
const GONE = '00000000-0000-4000-8000-00000000000c'

/** Old dates, so the rows the logins of these tests write never fall in a filtered range. */
beforeAll(async () => {
  t = await buildTestApp()
  admin = (await t.loginAs('admin')).headers
  const ada = { userId: ADA, actorName: 'Ada Admin', actorEmail: 'ada@example.test' }
  const bob = { userId: BOB, actorName: 'Bob Builder', actorEmail: 'bob@example.test' }
  await insertLogs(t.database.db, [
    { createdAt: new Date('2020-02-29T23:59:59.999Z'), action: 'COMPANIES_SYNCED' },
    {
      createdAt: new Date('2020-03-01T00:00:00.000Z'),
      action: 'LOGIN_SUCCESS',
      ...ada,
      details: { message: 'Signed in' },
      ipAddress: '10.0.0.1',
    },
    {
      createdAt: new Date('2020-03-01T23:59:59.999Z'),
      action: 'LOGOUT',
      ...bob,
      details: 'plain note',
      ipAddress: '10.0.0.2',
    },
    {
      createdAt: new Date('2020-03-02T00:00:00.000Z'),
      action: 'PAGE_VIEWED',
      ...ada,
      details: { pathname: '/Courses/Special' },
      ipAddress: '192.168.7.9',
    },
    {
      createdAt: new Date('2020-03-03T12:00:00.000Z'),
      action: 'ADMIN_USER_DELETED',
      userId: GONE,
      actorName: 'Cara Gone',
      actorEmail: 'cara@example.test',
      details: { note: '100%_sure' },
    },
  ])
  // 120 rows on one day for the pagination figures.
  await insertLogs(
    t.database.db,
    Array.from({ length: 120 }, (_, i) => ({
      createdAt: new Date(Date.UTC(2019, 5, 1, 0, 0, i)),
      action: 'DASHBOARD_VIEWED',
      details: { n: i },
    })),
  )
})
afterAll(async () => t.close())

const get = (query: string, headers: Record<string, string> = admin) =>
  t.app.inject({ method: 'GET', url: `/api/logs${query}`, headers })
const list = async (query: string) => {
  const res = await get(query)
  expect(res.statusCode, res.body).toBe(200)
  return res.json<LogListResponse>()
}
const actions = (body: LogListResponse) => body.logs.map((l) => l.action)
const MARCH = 'startDate=2020-02-01&endDate=2020-03-31'

describe('GET /api/logs access', () => {
  it('answers admins only: 403 for sales, internal and client, 401 without a token', async () => {
    for (const role of ['sales', 'internal', 'client'] as const) {
      const { headers } = await t.loginAs(role)
      expect((await get('', headers)).statusCode, role).toBe(403)
      expect((await get('/export.csv', headers)).statusCode, role).toBe(403)
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/logs' })).statusCode).toBe(401)
    expect((await t.app.inject({ method: 'GET', url: '/api/logs/export.csv' })).statusCode).toBe(401)
  })

  it('keeps the POST routes working beside the list', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/logs/action',
      headers: admin,
      payload: { action: 'LOGS_PAGE_VIEWED' },
    })
    expect(res.statusCode).toBe(201)
  })
})

describe('GET /api/logs filters', () => {
  it('lists newest first with the product-rules fields, the actor kept on the row, and null user for system rows', async () => {
    const body = await list(`?${MARCH}`)
    expect(actions(body)).toEqual(['ADMIN_USER_DELETED', 'PAGE_VIEWED', 'LOGOUT', 'LOGIN_SUCCESS', 'COMPANIES_SYNCED'])
    expect(body).toMatchObject({ currentPage: 1, totalPages: 1, totalLogs: 5, totalLogsCapped: false })
    expect(body.logs[2]).toEqual({
      id: expect.any(Number),
      createdAt: '2020-03-01T23:59:59.999Z',
      action: 'LOGOUT',
      details: 'plain note',
      ipAddress: '10.0.0.2',
      user: { id: BOB, name: 'Bob Builder', email: 'bob@example.test' },
    })
    expect(body.logs[0]!.user).toEqual({ id: GONE, name: 'Cara Gone', email: 'cara@example.test' })
    expect(body.logs[4]).toMatchObject({ user: null, details: null, ipAddress: null })
  })

  it.each([
    ['startDate=2020-03-01&endDate=2020-03-01', ['LOGOUT', 'LOGIN_SUCCESS']],
    ['startDate=2020-03-02', ['ADMIN_USER_DELETED', 'PAGE_VIEWED']],
    ['startDate=2020-01-01&endDate=2020-02-29', ['COMPANIES_SYNCED']],
    ['startDate=2020-03-03&endDate=2020-03-03', ['ADMIN_USER_DELETED']],
  ])('takes both dates inclusively in UTC: %s', async (query, expected) => {
    const body = await list(`?${query}${query.includes('endDate') ? '' : '&endDate=2020-12-31'}`)
    expect(actions(body)).toEqual(expected)
  })

  it.each([
    [`userId=${ADA}`, ['PAGE_VIEWED', 'LOGIN_SUCCESS']],
    [`userId=${GONE}`, ['ADMIN_USER_DELETED']],
    ['action=LOGOUT', ['LOGOUT']],
    [`action=PAGE_VIEWED&userId=${BOB}`, []],
    ['searchTerm=signed%20IN', ['LOGIN_SUCCESS']],
    ['searchTerm=courses/special', ['PAGE_VIEWED']],
    ['searchTerm=192.168.7', ['PAGE_VIEWED']],
    ['searchTerm=BUILDER', ['LOGOUT']],
    ['searchTerm=cara@example', ['ADMIN_USER_DELETED']],
    ['searchTerm=100%25_', ['ADMIN_USER_DELETED']],
    // One or two characters match where a word starts ("Cara", "cara@…", "sure"),
    // not inside a word (the "ar" of "Cara"); punctuation alone matches nothing.
    ['searchTerm=CA', ['ADMIN_USER_DELETED']],
    ['searchTerm=su', ['ADMIN_USER_DELETED']],
    ['searchTerm=ar', []],
    ['searchTerm=_', []],
    ['searchTerm=%25', []],
    ['searchTerm=nothing-like-this', []],
    [
      'userId=&action=&searchTerm=',
      ['ADMIN_USER_DELETED', 'PAGE_VIEWED', 'LOGOUT', 'LOGIN_SUCCESS', 'COMPANIES_SYNCED'],
    ],
  ])('narrows by %s', async (query, expected) => {
    const body = await list(`?${MARCH}&${query}`)
    expect(actions(body)).toEqual(expected)
    expect(body.totalLogs).toBe(expected.length)
  })

  it.each([
    [`startDate=2020-03-01&endDate=2020-03-01&userId=${ADA}`, ['LOGIN_SUCCESS']],
    [`startDate=2020-03-02&endDate=2020-03-02&userId=${ADA}`, ['PAGE_VIEWED']],
    ['startDate=2020-03-02&endDate=2020-03-31&action=LOGIN_SUCCESS', []],
    ['startDate=2020-03-01&endDate=2020-03-01&action=LOGIN_SUCCESS', ['LOGIN_SUCCESS']],
    [`startDate=2020-03-01&endDate=2020-03-03&userId=${ADA}&action=PAGE_VIEWED&searchTerm=special`, ['PAGE_VIEWED']],
    [`startDate=2020-03-01&endDate=2020-03-03&userId=${ADA}&action=PAGE_VIEWED&searchTerm=signed`, []],
  ])('combines the filters (all must hold): %s', async (query, expected) => {
    const body = await list(`?${query}`)
    expect(actions(body)).toEqual(expected)
    expect(body.totalLogs).toBe(expected.length)
    expect(body.totalPages).toBe(expected.length > 0 ? 1 : 0)
  })

  it.each([
    ['startDate=2020-03-02&endDate=2020-03-01', 'End date cannot be before start date.'],
    ['startDate=2020-02-30', 'Invalid date. Use YYYY-MM-DD.'],
  ])('refuses %s with 400 %s', async (query, message) => {
    const res = await get(`?${query}`)
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toBe(message)
  })

  it.each([
    'startDate=03/01/2020',
    'userId=not-a-uuid',
    'action=NOT_AN_ACTION',
    'page=0',
    'limit=201',
    `searchTerm=${'x'.repeat(201)}`,
  ])('refuses %s with 400', async (query) => {
    expect((await get(`?${query}`)).statusCode).toBe(400)
  })
})

describe('GET /api/logs pagination', () => {
  const DAY = 'startDate=2019-06-01&endDate=2019-06-01'
  it('pages 50 at a time by default with the product-rules figures', async () => {
    const first = await list(`?${DAY}`)
    expect(first).toMatchObject({ currentPage: 1, totalPages: 3, totalLogs: 120 })
    expect(first.logs).toHaveLength(50)
    expect(first.logs[0]!.details).toEqual({ n: 119 })
    const last = await list(`?${DAY}&page=3`)
    expect(last).toMatchObject({ currentPage: 3, totalPages: 3, totalLogs: 120 })
    expect(last.logs.map((l) => (l.details as { n: number }).n)).toEqual(Array.from({ length: 20 }, (_, i) => 19 - i))
    const past = await list(`?${DAY}&page=4`)
    expect(past).toMatchObject({ logs: [], currentPage: 4, totalPages: 3, totalLogs: 120 })
  })

  it('takes a limit up to 200, and pages neither repeat nor skip rows', async () => {
    const seen = new Set<number>()
    for (let page = 1; page <= 3; page += 1) {
      const body = await list(`?${DAY}&limit=45&page=${page}`)
      expect(body.totalPages).toBe(3)
      for (const log of body.logs) seen.add(log.id)
    }
    expect(seen.size).toBe(120)
    expect((await list(`?${DAY}&limit=200`)).logs).toHaveLength(120)
  })

  it('getAll=true returns every matching log and records LOGS_EXPORTED', async () => {
    const body = await list(`?${DAY}&getAll=true&limit=10`)
    expect(body.logs).toHaveLength(120)
    expect(body).toMatchObject({ currentPage: 1, totalPages: 1, totalLogs: 120 })
    const [row] = await t.database.db.select().from(activityLog).orderBy(desc(activityLog.id)).limit(1)
    expect(row).toMatchObject({
      action: 'LOGS_EXPORTED',
      details: {
        format: 'json',
        filters: { startDate: '2019-06-01', endDate: '2019-06-01' },
        rowCount: 120,
        completed: true,
      },
    })
  })
})

describe('GET /api/logs?getAll=true filters', () => {
  it.each([
    ['action=LOGOUT', ['LOGOUT']],
    [`userId=${ADA}`, ['PAGE_VIEWED', 'LOGIN_SUCCESS']],
    ['searchTerm=192.168.7', ['PAGE_VIEWED']],
    ['action=', ['ADMIN_USER_DELETED', 'PAGE_VIEWED', 'LOGOUT', 'LOGIN_SUCCESS', 'COMPANIES_SYNCED']],
  ])('returns only the logs matching %s', async (query, expected) => {
    const body = await list(`?${MARCH}&getAll=true&${query}`)
    expect(actions(body)).toEqual(expected)
    expect(body.totalLogs).toBe(expected.length)
  })
})

describe('GET /api/users/:id/activity', () => {
  it('gives an admin the 20 latest rows of a user, and 404 for an unknown user', async () => {
    const user = await t.createUser('sales', { name: 'Sam Seller' })
    await insertLogs(
      t.database.db,
      Array.from({ length: 25 }, (_, i) => ({
        createdAt: new Date(Date.UTC(2018, 0, 1, 0, i)),
        action: 'PAGE_VIEWED',
        userId: user.id,
        actorName: 'Sam Seller',
        actorEmail: user.email,
        details: { i },
      })),
    )
    await t.login(user.email) // a LOGIN_SUCCESS now: the newest row
    const res = await t.app.inject({ method: 'GET', url: `/api/users/${user.id}/activity`, headers: admin })
    expect(res.statusCode).toBe(200)
    const rows = res.json<LogListResponse['logs']>()
    expect(rows).toHaveLength(20)
    expect(rows[0]).toMatchObject({ action: 'LOGIN_SUCCESS', user: { id: user.id, email: user.email } })
    expect(rows[1]!.details).toEqual({ i: 24 })
    const missing = await t.app.inject({
      method: 'GET',
      url: '/api/users/00000000-0000-4000-8000-0000000000ff/activity',
      headers: admin,
    })
    expect(missing.statusCode).toBe(404)
    expect(missing.json().message).toBe('User not found')
    const sales = await t.loginAs('sales')
    const denied = await t.app.inject({ method: 'GET', url: `/api/users/${user.id}/activity`, headers: sales.headers })
    expect(denied.statusCode).toBe(403)
  })
})
