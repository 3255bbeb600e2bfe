import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DispatchListResponse } from '@portal/shared'
import { buildTestApp, type TestContext } from '../../test/helpers'
import { insertDispatches } from './dispatches.test-data'
import { SHALLOW_PAGE_END } from './dispatches.repository'
import { PLACED_PAGE_OFFSET } from './dispatches-placed.sql'
import { sql } from 'drizzle-orm'

let t: TestContext
let headers: { 'x-auth-token': string }

interface Made {
  id: string
  client: string
  course: string
  enabled: boolean
  registrations: number
}

/**
 * Dispatches over four clients and three courses, with repeated keys, so the second half of
 * every order (walked from the other end) is checked against the order computed
 * here: client, course, status (enabled, then client), registrations, then id.
 */
const CLIENTS = ['Alpha Clinics', 'beta Freight', 'Gamma Foods', 'delta Bank']
const makeRows = (count: number, clients = CLIENTS): Made[] =>
  Array.from({ length: count }, (_, i) => ({
    id: `deep-${String(i).padStart(4, '0')}`,
    client: clients[i % clients.length]!,
    course: ['Fire Safety', 'excel Basics', 'Data Privacy'][(i * 7) % 3]!,
    enabled: i % 5 !== 0,
    registrations: (i * 11) % 6,
  }))
const made = makeRows(61)

async function setUp(rows: Made[]) {
  t = await buildTestApp()
  headers = (await t.loginAs('admin')).headers
  await insertDispatches(
    t.database.db,
    rows.map((m) => ({
      id: m.id,
      destinationId: `company-${m.client.split(' ')[0]!.toLowerCase()}`,
      destinationName: m.client,
      courseId: `course-${m.course.split(' ')[0]!.toLowerCase()}`,
      courseTitle: m.course,
      enabled: m.enabled,
      registrationCount: m.registrations,
    })),
  )
}

const cmp = (a: string | number | boolean, b: string | number | boolean) => (a < b ? -1 : a > b ? 1 : 0)
const KEYS: Record<string, (m: Made) => (string | number | boolean)[]> = {
  client: (m) => [m.client.toLowerCase()],
  course: (m) => [m.course.toLowerCase()],
  status: (m) => [m.enabled, m.client.toLowerCase()],
  registrations: (m) => [m.registrations],
}

function expected(rows: Made[], sort: string, order: 'asc' | 'desc'): string[] {
  const sign = order === 'asc' ? 1 : -1
  return [...rows]
    .sort((a, b) => {
      const ka = [...KEYS[sort]!(a), a.id]
      const kb = [...KEYS[sort]!(b), b.id]
      for (let i = 0; i < ka.length; i += 1) {
        const c = cmp(ka[i]!, kb[i]!)
        if (c !== 0) return sign * c
      }
      return 0
    })
    .map((m) => m.id)
}

async function pageIds(query: string): Promise<{ ids: string[]; total: number }> {
  const res = await t.app.inject({ method: 'GET', url: `/api/dispatches?${query}`, headers })
  expect(res.statusCode).toBe(200)
  const body = res.json<DispatchListResponse>()
  return { ids: body.dispatches.map((d) => d.id), total: body.pagination.totalItems }
}

async function everyPage(rows: Made[], sort: string, pageSize: number) {
  for (const order of ['asc', 'desc'] as const) {
    const want = expected(rows, sort, order)
    for (let page = 1; page <= Math.ceil(rows.length / pageSize); page += 1) {
      const got = await pageIds(`sort=${sort}&order=${order}&pageSize=${pageSize}&page=${page}`)
      expect(got.total).toBe(rows.length)
      expect(got.ids).toEqual(want.slice((page - 1) * pageSize, page * pageSize))
    }
  }
}

const SORTS = ['client', 'course', 'status', 'registrations']

/**
 * A staff page ending within SHALLOW_PAGE_END is read with its summary in one statement, walked
 * from the start; one ending further in is read after the total, from the nearer end. 1,250
 * rows in pages of 200: pages 1 to 5 the first way, 6 and 7 (offsets 1,000 and 1,200, past half)
 * the second.
 */
describe('GET /api/dispatches, staff pages past SHALLOW_PAGE_END (walked from the end)', () => {
  const rows = makeRows(1_250)
  beforeAll(async () => setUp(rows))
  afterAll(async () => t.close())

  it.each(SORTS)('every page of the %s order, both ways', async (sort) => {
    expect((6 - 1) * 200 + 200).toBeGreaterThan(SHALLOW_PAGE_END)
    await everyPage(rows, sort, 200)
  })
})

/**
 * A staff page whose walk starts PLACED_PAGE_OFFSET rows in or further (from either end) is
 * placed by the kept counts per company name and course title (migration 0052). 4,400 rows over
 * 37 client names, 8 of them another one in other case (one sort key), in pages of 100: pages 21 to 24 are placed
 * (offsets 2,000 and 2,100 from the start, 2,100 and 2,000 from the end), the others walked.
 * Then a status filter, a rename, a removal and a new dispatch, which the counts follow.
 */
describe('GET /api/dispatches, staff pages placed by the kept counts', () => {
  const clients = Array.from(
    { length: 37 },
    (_, i) => `${i % 2 ? 'client' : 'Client'} ${String(i % 29).padStart(2, '0')}`,
  )
  let rows = makeRows(4_400, clients)
  beforeAll(async () => setUp(rows))
  afterAll(async () => t.close())

  it.each(['client', 'course', 'status'])('pages 19 to 26 of the %s order, both ways', async (sort) => {
    expect(20 * 100).toBe(PLACED_PAGE_OFFSET)
    for (const order of ['asc', 'desc'] as const) {
      const want = expected(rows, sort, order)
      for (let page = 19; page <= 26; page += 1) {
        const got = await pageIds(`sort=${sort}&order=${order}&pageSize=100&page=${page}`)
        expect(got.total).toBe(rows.length)
        expect(got.ids).toEqual(want.slice((page - 1) * 100, page * 100))
      }
    }
  })

  it('a status filter, and the counts after a rename, a removal and a new dispatch', async () => {
    const enabled = rows.filter((m) => m.enabled)
    for (const sort of ['client', 'course']) {
      const want = expected(enabled, sort, 'asc')
      const got = await pageIds(`sort=${sort}&order=asc&status=enabled&pageSize=100&page=22`)
      expect(got.total).toBe(enabled.length)
      expect(got.ids).toEqual(want.slice(2_100, 2_200))
    }
    const db = t.database.db
    await db.execute(sql`update dispatch set destination_name = 'Aardvark Ltd' where id in ('deep-0000', 'deep-0037')`)
    await db.execute(sql`update dispatch set removed_at = now() where id = 'deep-0001'`)
    await insertDispatches(db, [
      {
        id: 'deep-9999',
        destinationId: 'company-zulu',
        destinationName: 'Zulu',
        courseId: 'course-a',
        courseTitle: 'A',
        enabled: true,
      },
    ])
    rows = [
      ...rows
        .filter((m) => m.id !== 'deep-0001')
        .map((m) => (m.id === 'deep-0000' || m.id === 'deep-0037' ? { ...m, client: 'Aardvark Ltd' } : m)),
      { id: 'deep-9999', client: 'Zulu', course: 'A', enabled: true, registrations: 0 },
    ]
    for (const sort of ['client', 'course', 'status']) {
      for (const order of ['asc', 'desc'] as const) {
        const want = expected(rows, sort, order)
        for (const page of [21, 23]) {
          const got = await pageIds(`sort=${sort}&order=${order}&pageSize=100&page=${page}`)
          expect(got.ids).toEqual(want.slice((page - 1) * 100, page * 100))
        }
      }
    }
  })
})

describe('GET /api/dispatches, every page of a short list', () => {
  beforeAll(async () => setUp(made))
  afterAll(async () => t.close())

  // Pages of 25 of 61: each within SHALLOW_PAGE_END, so read with its summary from the start.
  it.each(SORTS)('every page of the %s order, both ways', async (sort) => everyPage(made, sort, 25))

  it('a search and a status filter page the same way', async () => {
    // "clinics" matches one client's dispatches; "e" (one letter) the word starts of many names.
    for (const [search, pick] of [
      ['clinics', (m: Made) => m.client === 'Alpha Clinics'],
      ['e', (m: Made) => /(^|\s)e/i.test(m.client) || /(^|\s)e/i.test(m.course)],
    ] as const) {
      const rows = made.filter((m) => pick(m) && m.enabled)
      const want = expected(rows, 'registrations', 'desc')
      expect(want.length).toBeGreaterThan(10)
      for (let page = 1; page <= Math.ceil(want.length / 10); page += 1) {
        const got = await pageIds(
          `search=${search}&status=enabled&sort=registrations&order=desc&pageSize=10&page=${page}`,
        )
        expect(got.total).toBe(want.length)
        expect(got.ids).toEqual(want.slice((page - 1) * 10, page * 10))
      }
    }
  })
})
