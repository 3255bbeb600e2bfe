import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Dispatch, DispatchListResponse } from '@portal/shared'
import { buildTestApp, type TestContext } from '../../test/helpers'
import { insertCompany, insertDispatches, insertRegistrations } from './dispatches.test-data'

let t: TestContext
let admin: { 'x-auth-token': string }

/**
 * Six visible dispatches over three companies, one removed. Names differ in their first letter
 * only, so the order is the same under any collation (PGlite and PostgreSQL differ).
 */
const A = { destinationId: 'company-a', destinationName: 'Alpha Co' }
const B = { destinationId: 'company-b', destinationName: 'bravo co' }
const C = { destinationId: 'company-c', destinationName: 'Charlie Co' }
const ALG = { courseId: 'c-alg', courseTitle: 'Algebra' }
const BIO = { courseId: 'c-bio', courseTitle: 'biology' }
const CHE = { courseId: 'c-che', courseTitle: 'Chemistry' }

beforeAll(async () => {
  t = await buildTestApp()
  admin = (await t.loginAs('admin')).headers
  await insertDispatches(t.database.db, [
    {
      id: 'disp-01',
      ...A,
      ...ALG,
      enabled: true,
      registrationCount: 10,
      registrationCap: 20,
      tags: ['vip'],
      notes: 'n1',
    },
    { id: 'disp-02', ...A, ...BIO, enabled: false, registrationCount: 5, registrationCap: 0 },
    { id: 'disp-03', ...B, ...CHE, enabled: true, registrationCount: 30, registrationCap: 25 },
    { id: 'disp-04', ...B, ...ALG, enabled: true, registrationCount: 0, registrationCap: 0 },
    { id: 'disp-05', ...C, ...BIO, enabled: false, registrationCount: 7, registrationCap: 10 },
    { id: 'disp-06', ...C, ...CHE, enabled: true, registrationCount: 7, registrationCap: 0 },
    { id: 'disp-07', ...A, ...CHE, registrationCount: 100, registrationCap: 100, removedAt: new Date() },
  ])
  await insertRegistrations(t.database.db, [
    { id: 'r1', dispatchId: 'disp-01' },
    { id: 'r2', dispatchId: 'disp-01' },
    { id: 'r3', dispatchId: 'disp-01', removedAt: new Date() },
    { id: 'r4', dispatchId: 'disp-03' },
    { id: 'r5', dispatchId: 'disp-03' },
    { id: 'r6', dispatchId: 'disp-07' },
  ])
})
afterAll(async () => t.close())

const list = async (query = '', headers = admin) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/dispatches${query}`, headers })
  expect(res.statusCode, res.body).toBe(200)
  return res.json<DispatchListResponse>()
}
const ids = (body: DispatchListResponse) => body.dispatches.map((d) => d.id)

describe('GET /api/dispatches for staff', () => {
  it('lists every present dispatch by client name by default, 50 a page, never a removed one', async () => {
    const body = await list()
    expect(ids(body)).toEqual(['disp-01', 'disp-02', 'disp-03', 'disp-04', 'disp-05', 'disp-06'])
    expect(body.pagination).toEqual({ totalItems: 6, page: 1, pageSize: 50, totalPages: 1 })
    expect(body.dispatches[0]).toEqual({
      id: 'disp-01',
      courseId: 'c-alg',
      courseTitle: 'Algebra',
      destinationId: 'company-a',
      destinationName: 'Alpha Co',
      enabled: true,
      registrationCount: 10,
      registrationCap: 20,
      created: '2026-01-02T03:04:05.000Z',
      updated: '2026-02-03T04:05:06.000Z',
      expirationDate: null,
      appSource: '7',
      registrationResetDate: null,
      tags: ['vip'],
      notes: 'n1',
    })
  })

  it('summarises the whole filtered set: caps 0, over-cap and disabled dispatches', async () => {
    const { summary } = await list('?pageSize=10')
    expect(summary).toEqual({
      totalDispatches: 6,
      activeDispatches: 4,
      registrations: 10 + 5 + 30 + 0 + 7 + 7,
      cappedRegistrations: 10 + 30 + 7,
      cappedCapacity: 20 + 25 + 10,
      usagePercent: Math.round((47 / 55) * 100),
      unlimitedActive: 2,
      // r1, r2 of disp-01 and r4, r5 of disp-03: not the removed r3, not disp-07's r6.
      activeRegistrations: 4,
    })
    const enabled = await list('?status=enabled')
    expect(enabled.summary).toMatchObject({ totalDispatches: 4, activeDispatches: 4, registrations: 47 })
    expect(enabled.summary).toMatchObject({ cappedRegistrations: 40, cappedCapacity: 45, usagePercent: 89 })
    const none = await list('?search=nothing-matches')
    expect(none.summary).toEqual({
      totalDispatches: 0,
      activeDispatches: 0,
      registrations: 0,
      cappedRegistrations: 0,
      cappedCapacity: 0,
      usagePercent: null,
      unlimitedActive: 0,
      activeRegistrations: 0,
    })
    expect(none.pagination).toMatchObject({ totalItems: 0, totalPages: 0 })
  })

  it.each([
    ['client', ['disp-01', 'disp-02', 'disp-03', 'disp-04', 'disp-05', 'disp-06']],
    ['course', ['disp-01', 'disp-04', 'disp-02', 'disp-05', 'disp-03', 'disp-06']],
    ['status', ['disp-02', 'disp-05', 'disp-01', 'disp-03', 'disp-04', 'disp-06']],
    ['registrations', ['disp-04', 'disp-02', 'disp-05', 'disp-06', 'disp-01', 'disp-03']],
  ])('sorts by %s, case-insensitively, ascending and descending, ties broken by id', async (sort, asc) => {
    expect(ids(await list(`?sort=${sort}`))).toEqual(asc)
    expect(ids(await list(`?sort=${sort}&order=asc`))).toEqual(asc)
    expect(ids(await list(`?sort=${sort}&order=desc`))).toEqual([...asc].reverse())
  })

  it.each([
    ['al', ['disp-01', 'disp-02', 'disp-04']], // Alpha Co and Algebra: disp-01 is both
    ['ch', ['disp-03', 'disp-05', 'disp-06']], // Charlie Co and Chemistry: disp-06 is both
    ['alpha', ['disp-01', 'disp-02']], // a company only
    ['biol', ['disp-02', 'disp-05']], // a course only
  ])(
    'sums a search matching %s once per dispatch, whether it matched the course, the company or both',
    async (term, expected) => {
      const body = await list(`?search=${term}`)
      expect(ids(body)).toEqual(expected)
      const rows = body.dispatches
      expect(body.summary).toMatchObject({
        totalDispatches: expected.length,
        activeDispatches: rows.filter((d) => d.enabled).length,
        registrations: rows.reduce((sum, d) => sum + d.registrationCount, 0),
      })
    },
  )

  it('filters by status and searches course, client and id case-insensitively', async () => {
    expect(ids(await list('?status=enabled'))).toEqual(['disp-01', 'disp-03', 'disp-04', 'disp-06'])
    expect(ids(await list('?status=disabled'))).toEqual(['disp-02', 'disp-05'])
    expect(ids(await list('?status=all'))).toHaveLength(6)
    expect(ids(await list('?search=ALGE'))).toEqual(['disp-01', 'disp-04'])
    expect(ids(await list('?search=BRAVO'))).toEqual(['disp-03', 'disp-04'])
    expect(ids(await list('?search=sp-05'))).toEqual(['disp-05'])
    expect(ids(await list('?search=chem&status=enabled&sort=client&order=desc'))).toEqual(['disp-06', 'disp-03'])
    // LIKE wildcards are taken literally.
    expect(ids(await list('?search=%25'))).toEqual([])
    expect(ids(await list('?search=disp_0'))).toEqual([])
  })

  it('refuses invalid list parameters with 400', async () => {
    for (const query of ['?pageSize=7', '?sort=title', '?order=up', '?status=on', '?page=0']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/dispatches${query}`, headers: admin })
      expect(res.statusCode, query).toBe(400)
    }
  })

  it('needs a token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/dispatches' })).statusCode).toBe(401)
  })
})

describe('GET /api/dispatches scoping and fields', () => {
  it('shows a client only its own company’s dispatches, with its own summary, no tags, notes or active count', async () => {
    const { headers } = await t.loginAs('client', { companyId: 'company-a' })
    const body = await list('?sort=course&order=desc', headers)
    expect(ids(body)).toEqual(['disp-02', 'disp-01'])
    expect(body.summary).toEqual({
      totalDispatches: 2,
      activeDispatches: 1,
      registrations: 15,
      cappedRegistrations: 10,
      cappedCapacity: 20,
      usagePercent: 50,
      unlimitedActive: 0,
    })
    expect(ids(await list('?search=bravo', headers))).toEqual([])
    // Its own company's name finds its dispatches; a course it has at another company, only its own.
    expect(ids(await list('?search=ALPHA', headers))).toEqual(['disp-01', 'disp-02'])
    expect(ids(await list('?search=al', headers))).toEqual(['disp-01', 'disp-02'])
    expect(ids(await list('?search=chemistry', headers))).toEqual([])
    expect(ids(await list('?search=algebra', headers))).toEqual(['disp-01'])
    for (const d of body.dispatches) expect(Object.keys(d)).not.toContain('tags')
    for (const d of body.dispatches) expect(Object.keys(d)).not.toContain('notes')
  })

  it('gives a client without a company an empty list and a zero summary', async () => {
    const { headers } = await t.loginAs('client', { companyId: null })
    const body = await list('', headers)
    expect(body.dispatches).toEqual([])
    expect(body.pagination.totalItems).toBe(0)
    expect(body.summary).toMatchObject({ totalDispatches: 0, registrations: 0, usagePercent: null })
    const one = await t.app.inject({ method: 'GET', url: '/api/dispatches/disp-01', headers })
    expect(one.statusCode).toBe(404)
  })

  it.each([
    ['admin', true],
    ['internal', true],
    ['sales', false],
  ] as const)('%s: tags and notes present = %s; active registrations always', async (role, withNotes) => {
    const { headers } = await t.loginAs(role)
    const body = await list('', headers)
    expect(body.dispatches.every((d) => 'tags' in d && 'notes' in d)).toBe(withNotes)
    expect(body.summary.activeRegistrations).toBe(4)
    const one = await t.app.inject({ method: 'GET', url: '/api/dispatches/disp-01', headers })
    expect('notes' in one.json<Dispatch>()).toBe(withNotes)
  })

  it.each([
    ['admin', true],
    ['internal', false],
    ['sales', false],
  ] as const)('%s: the app source present = %s (docs/product-rules.md §6: admin only)', async (role, withApp) => {
    const { headers } = await t.loginAs(role)
    const body = await list('', headers)
    expect(body.dispatches.every((d) => 'appSource' in d)).toBe(withApp)
    const one = await t.app.inject({ method: 'GET', url: '/api/dispatches/disp-01', headers })
    expect(one.json<Dispatch>().appSource).toBe(withApp ? '7' : undefined)
  })
})

describe('GET /api/dispatches/:id', () => {
  it('answers one dispatch, and 404 for a foreign, removed or unknown one', async () => {
    const mine = await t.loginAs('client', { companyId: 'company-a' })
    const get = (id: string, headers = mine.headers) =>
      t.app.inject({ method: 'GET', url: `/api/dispatches/${id}`, headers })
    const own = await get('disp-02')
    expect(own.statusCode).toBe(200)
    expect(own.json()).toMatchObject({ id: 'disp-02', enabled: false, registrationCap: 0 })
    for (const id of ['disp-03', 'disp-07', 'nope']) {
      const res = await get(id)
      expect(res.statusCode, id).toBe(404)
      expect(res.json().message).toBe('Dispatch not found')
    }
    expect((await get('disp-07', admin)).statusCode).toBe(404)
    expect((await get('disp-03', admin)).json().destinationName).toBe('bravo co')
  })
})

describe('GET /api/dispatches/destinations', () => {
  it('lists present companies by name for staff, not removed ones, and is not taken for an id', async () => {
    await insertCompany(t.database.db, 'company-z', 'Gone Co', new Date())
    for (const role of ['admin', 'internal', 'sales'] as const) {
      const { headers } = await t.loginAs(role)
      const res = await t.app.inject({ method: 'GET', url: '/api/dispatches/destinations', headers })
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual([
        { id: 'company-a', name: 'Alpha Co' },
        { id: 'company-b', name: 'bravo co' },
        { id: 'company-c', name: 'Charlie Co' },
      ])
    }
  })

  it('refuses clients (403) and callers without a token (401)', async () => {
    const { headers } = await t.loginAs('client', { companyId: 'company-a' })
    const res = await t.app.inject({ method: 'GET', url: '/api/dispatches/destinations', headers })
    expect(res.statusCode).toBe(403)
    expect((await t.app.inject({ method: 'GET', url: '/api/dispatches/destinations' })).statusCode).toBe(401)
  })
})

describe('PUT /api/dispatches/:id without SCORM Cloud', () => {
  it('answers 503 NOT_READY and changes nothing', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/dispatches/disp-01',
      headers: admin,
      payload: { enabled: false },
    })
    expect(res.statusCode).toBe(503)
    expect(res.json()).toEqual({ code: 'NOT_READY', message: 'SCORM Cloud is not configured.' })
    expect((await list()).dispatches[0]).toMatchObject({ id: 'disp-01', enabled: true })
  })
})
