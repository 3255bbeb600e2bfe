import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Value } from 'typebox/value'
import { DispatchListResponseSchema, type Dispatch, type DispatchListResponse, type Role } from '@portal/shared'
import { buildTestApp, type TestContext } from '../../test/helpers'
import { course } from '../../db/schema'
import { insertDispatches } from './dispatches.test-data'

/**
 * The list's rows are written as JSON by PostgreSQL (db/json-rows.ts), not by
 * toDispatch(). Every row must be exactly what GET /api/dispatches/{id} (toDispatch) gives the
 * same role, with values that test the escaping and the date format, on every path of the list:
 * a staff first page (one statement with its summary), a deep staff page, a search walked and a
 * search collected, and a client's page.
 */
let t: TestContext
const headers = new Map<Role, { 'x-auth-token': string }>()

const TRICKY = 'He said "hi" \\ back\\slash / Zürich 東京 😀'
const CONTROL = 'line one\nline two\ttabbed\r\u0001\u001f end'

beforeAll(async () => {
  t = await buildTestApp()
  await t.database.db.insert(course).values({ id: 'c-null-app', title: 'No app source', appSource: null })
  await insertDispatches(t.database.db, [
    {
      id: 'json-01',
      destinationId: 'company-a',
      destinationName: TRICKY,
      courseId: 'c-tricky',
      courseTitle: `Course ${TRICKY}`,
      enabled: true,
      registrationCount: 2_147_483_647,
      registrationCap: 0,
      tags: ['a,b', 'q"uote', '日本', 'back\\slash', ''],
      notes: CONTROL,
      expirationDate: new Date('2026-03-04T05:06:07.089Z'),
      registrationResetDate: new Date('2025-12-31T23:59:59.999Z'),
      providerCreated: null,
      providerUpdated: new Date('1999-01-01T00:00:00.001Z'),
    },
    {
      id: 'json-02',
      destinationId: 'company-a',
      destinationName: 'Alpha Co',
      courseId: 'c-null-app',
      courseTitle: 'No app source',
      enabled: false,
      registrationCount: 0,
      registrationCap: 5,
      tags: [],
      notes: '',
    },
    ...Array.from({ length: 40 }, (_, i) => ({
      id: `json-${String(i + 10).padStart(2, '0')}`,
      destinationId: i % 2 ? 'company-a' : 'company-b',
      destinationName: i % 2 ? 'Alpha Co' : `Bravo "${i}"`,
      courseId: `c-${i % 3}`,
      courseTitle: `Title ${i % 3} 'quoted'`,
      enabled: i % 4 !== 0,
      registrationCount: i * 3,
      registrationCap: i % 5,
      tags: i % 2 ? [`t${i}`] : [],
      notes: `note ${i}`,
      expirationDate: i % 3 ? new Date(Date.UTC(2027, i % 12, 1 + i, 10, 20, 30, i)) : null,
    })),
  ])
  for (const role of ['admin', 'internal', 'sales'] as const) headers.set(role, (await t.loginAs(role)).headers)
  headers.set('client', (await t.loginAs('client', { companyId: 'company-a' })).headers)
})
afterAll(async () => t.close())

async function get<T>(role: Role, url: string): Promise<T> {
  const res = await t.app.inject({ method: 'GET', url, headers: headers.get(role)! })
  expect(res.statusCode, res.body).toBe(200)
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
  return res.json<T>()
}

/** The list's rows against the single-dispatch read of the same role, one by one. */
async function expectRowsAsDetails(role: Role, query: string, expectedCount: number) {
  const body = await get<DispatchListResponse>(role, `/api/dispatches?${query}`)
  expect(Value.Check(DispatchListResponseSchema, body)).toBe(true)
  expect(body.dispatches).toHaveLength(expectedCount)
  for (const row of body.dispatches) {
    expect(row).toStrictEqual(await get<Dispatch>(role, `/api/dispatches/${row.id}`))
  }
  return body
}

describe('dispatch list rows written by PostgreSQL', () => {
  it.each(['admin', 'internal', 'sales'] as const)(
    'are what the details give %s, escaping and dates included',
    async (role) => {
      const body = await expectRowsAsDetails(role, 'pageSize=50&sort=registrations&order=desc', 42)
      const tricky = body.dispatches[0]!
      expect(tricky.id).toBe('json-01')
      expect(tricky.destinationName).toBe(TRICKY)
      expect(tricky.registrationCount).toBe(2_147_483_647)
      expect(tricky.created).toBeNull()
      expect(tricky.updated).toBe('1999-01-01T00:00:00.001Z')
      expect(tricky.expirationDate).toBe('2026-03-04T05:06:07.089Z')
      expect(tricky.registrationResetDate).toBe('2025-12-31T23:59:59.999Z')
      if (role === 'sales') {
        expect(tricky).not.toHaveProperty('tags')
        expect(tricky).not.toHaveProperty('notes')
        expect(tricky).not.toHaveProperty('appSource')
      } else {
        expect(tricky.tags).toEqual(['a,b', 'q"uote', '日本', 'back\\slash', ''])
        expect(tricky.notes).toBe(CONTROL)
        expect('appSource' in tricky).toBe(role === 'admin')
      }
    },
  )

  it('are what the details give a client, on its own company only', async () => {
    const body = await expectRowsAsDetails('client', 'pageSize=50', 22)
    expect(new Set(body.dispatches.map((d) => d.destinationId))).toEqual(new Set(['company-a']))
    const plain = body.dispatches.find((d) => d.id === 'json-02')!
    expect(plain.expirationDate).toBeNull()
    for (const key of ['tags', 'notes', 'appSource']) expect(plain).not.toHaveProperty(key)
  })

  it('keep the list order on every path: pages, searches walked and collected, a client search', async () => {
    const first = await expectRowsAsDetails('admin', 'pageSize=10&sort=client&order=asc', 10)
    const second = await expectRowsAsDetails('admin', 'page=2&pageSize=10&sort=client&order=asc', 10)
    const all = await get<DispatchListResponse>('admin', '/api/dispatches?pageSize=50&sort=client&order=asc')
    expect([...first.dispatches, ...second.dispatches].map((d) => d.id)).toEqual(
      all.dispatches.slice(0, 20).map((d) => d.id),
    )
    // "Bravo" matches one company: walked when dense, collected when sparse.
    const walked = await expectRowsAsDetails(
      'admin',
      'search=Bravo&pageSize=10&page=2&sort=registrations&order=asc',
      10,
    )
    expect(walked.pagination.totalItems).toBe(20)
    const counts = walked.dispatches.map((d) => d.registrationCount)
    expect(counts).toEqual([...counts].sort((a, b) => a - b))
    const collected = await expectRowsAsDetails('admin', 'search=json-01&pageSize=10', 1)
    expect(collected.dispatches[0]!.destinationName).toBe(TRICKY)
    await expectRowsAsDetails('client', 'search=quoted&pageSize=25&sort=course&order=desc', 20)
  })

  it('answer an empty page past the end with an empty array', async () => {
    const body = await get<DispatchListResponse>('admin', '/api/dispatches?page=9&pageSize=50')
    expect(body.dispatches).toEqual([])
    expect(body.pagination).toEqual({ totalItems: 42, page: 9, pageSize: 50, totalPages: 1 })
    const none = await get<DispatchListResponse>('admin', '/api/dispatches?search=nothing-matches-this')
    expect(none.dispatches).toEqual([])
    expect(Value.Check(DispatchListResponseSchema, none)).toBe(true)
  })
})
