import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DispatchListResponse } from '@portal/shared'
import { buildTestApp, type TestContext } from '../../test/helpers'
import { insertDispatches } from './dispatches.test-data'

let t: TestContext
let headers: { 'x-auth-token': string }

/** 23 dispatches of one client, so equal sort keys are the rule and only the id orders them. */
beforeAll(async () => {
  t = await buildTestApp()
  headers = (await t.loginAs('sales')).headers
  await insertDispatches(
    t.database.db,
    Array.from({ length: 23 }, (_, i) => ({
      id: `p-${String(i).padStart(2, '0')}`,
      destinationId: 'company-p',
      destinationName: 'Same Client',
      courseId: 'c-same',
      courseTitle: 'Same Course',
      registrationCount: i % 2,
    })),
  )
})
afterAll(async () => t.close())

const page = async (query: string) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/dispatches?pageSize=10&${query}`, headers })
  expect(res.statusCode).toBe(200)
  return res.json<DispatchListResponse>()
}

describe('GET /api/dispatches pagination', () => {
  it.each(['client', 'course', 'status', 'registrations'])(
    'pages through %s order without repeating or skipping a row, in both directions',
    async (sort) => {
      for (const order of ['asc', 'desc']) {
        const seen: string[] = []
        for (const n of [1, 2, 3]) {
          const body = await page(`sort=${sort}&order=${order}&page=${n}`)
          expect(body.pagination).toEqual({ totalItems: 23, page: n, pageSize: 10, totalPages: 3 })
          expect(body.dispatches).toHaveLength(n === 3 ? 3 : 10)
          seen.push(...body.dispatches.map((d) => d.id))
        }
        expect(new Set(seen).size).toBe(23)
        const again = (await page(`sort=${sort}&order=${order}&page=2`)).dispatches.map((d) => d.id)
        expect(again).toEqual(seen.slice(10, 20))
      }
    },
  )

  it('answers an empty page past the end, with the real totals', async () => {
    const body = await page('page=4')
    expect(body.dispatches).toEqual([])
    expect(body.pagination).toEqual({ totalItems: 23, page: 4, pageSize: 10, totalPages: 3 })
    expect(body.summary.totalDispatches).toBe(23)
  })

  it('accepts every page size of docs/product-rules.md §9', async () => {
    for (const size of [10, 25, 50, 100, 200]) {
      const res = await t.app.inject({ method: 'GET', url: `/api/dispatches?pageSize=${size}`, headers })
      expect(res.json<DispatchListResponse>().dispatches).toHaveLength(Math.min(size, 23))
    }
  })
})
