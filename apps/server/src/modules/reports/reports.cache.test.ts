import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import type { DispatchListResponse, ReportResponse } from '@portal/shared'
import { dispatch, registration } from '../../db/schema'
import { buildTestApp, type TestContext } from '../../test/helpers'
import { insertDispatches, insertRegistrations } from '../dispatches/dispatches.test-data'

// Caches the list summary, list pages, report totals and report pages per data
// version: the same request made again after any write to the data must show the write.
let t: TestContext
let admin: { 'x-auth-token': string }

beforeAll(async () => {
  t = await buildTestApp()
  admin = (await t.loginAs('admin')).headers
  await insertDispatches(t.database.db, [
    { id: 'cache-a', destinationId: 'company-a', registrationCount: 2, registrationCap: 10 },
    { id: 'cache-b', destinationId: 'company-b', enabled: false },
  ])
  await insertRegistrations(t.database.db, [
    { id: 'c1', dispatchId: 'cache-a', learnerEmail: 'ann@example.test', completionStatus: 'completed' },
    { id: 'c2', dispatchId: 'cache-a', learnerEmail: 'bob@example.test' },
  ])
})
afterAll(async () => t.close())

const get = async <T>(url: string, headers = admin): Promise<T> => {
  const res = await t.app.inject({ method: 'GET', url, headers })
  expect(res.statusCode, res.body).toBe(200)
  return res.json<T>()
}
const summary = async () => (await get<DispatchListResponse>('/api/dispatches?search=cache')).summary
const totals = async (query = '') => {
  const body = await get<ReportResponse>(`/api/reports/dispatch/cache-a${query}`)
  return {
    total: body.pagination.totalItems,
    learners: body.distinctLearners,
    ids: body.registrations.map((r) => r.id),
  }
}

describe('cached aggregates follow every write', () => {
  it('the dispatch list summary counts again after a dispatch changes, appears or goes', async () => {
    expect(await summary()).toMatchObject({ totalDispatches: 2, activeDispatches: 1, registrations: 2 })
    await t.database.db.update(dispatch).set({ enabled: true, registrationCount: 5 }).where(eq(dispatch.id, 'cache-b'))
    expect(await summary()).toMatchObject({ totalDispatches: 2, activeDispatches: 2, registrations: 7 })
    await insertDispatches(t.database.db, [{ id: 'cache-c', destinationId: 'company-a' }])
    expect(await summary()).toMatchObject({ totalDispatches: 3, activeDispatches: 3 })
    await t.database.db.update(dispatch).set({ removedAt: new Date() }).where(eq(dispatch.id, 'cache-c'))
    expect(await summary()).toMatchObject({ totalDispatches: 2, activeDispatches: 2, registrations: 7 })
  })

  it('the report totals count again after registrations are added, changed or removed', async () => {
    expect(await totals()).toEqual({ total: 2, learners: 2, ids: ['c1', 'c2'] })
    expect(await totals('?status=completed')).toEqual({ total: 1, learners: 1, ids: ['c1'] })
    await insertRegistrations(t.database.db, [{ id: 'c3', dispatchId: 'cache-a', learnerEmail: 'ANN@example.test' }])
    expect(await totals()).toEqual({ total: 3, learners: 2, ids: ['c1', 'c2', 'c3'] })
    // A progress update changes no count of rows on the dispatch, only the status filter's.
    await t.database.db.update(registration).set({ completionStatus: 'completed' }).where(eq(registration.id, 'c2'))
    expect(await totals('?status=completed')).toEqual({ total: 2, learners: 2, ids: ['c1', 'c2'] })
    await t.database.db.update(registration).set({ removedAt: new Date() }).where(eq(registration.id, 'c1'))
    expect(await totals('?status=completed')).toEqual({ total: 1, learners: 1, ids: ['c2'] })
    await t.database.db.delete(registration).where(eq(registration.id, 'c3'))
    expect(await totals()).toEqual({ total: 1, learners: 1, ids: ['c2'] })
  })

  it('a cached list page shows a changed dispatch, and a client never gets the staff page', async () => {
    const url = '/api/dispatches?search=cache&sort=course&order=asc'
    const page = async (headers = admin) =>
      (await get<DispatchListResponse>(url, headers)).dispatches.map((d) => `${d.id}:${d.courseTitle}`)
    const before = await page()
    expect(before).toHaveLength(2)
    await t.database.db.update(dispatch).set({ courseTitle: 'A renamed course' }).where(eq(dispatch.id, 'cache-b'))
    expect(await page()).toContain('cache-b:A renamed course')
    const client = (await t.loginAs('client', { companyId: 'company-a' })).headers
    const own = await page(client)
    expect(own.map((d) => d.split(':')[0])).toEqual(['cache-a'])
  })

  it('a cached report page shows a changed learner', async () => {
    const names = async () =>
      (await get<ReportResponse>('/api/reports/dispatch/cache-a')).registrations.map((r) => r.learnerFirstName)
    const before = await names()
    expect(before).not.toContain('Renamed')
    await t.database.db.update(registration).set({ learnerFirstName: 'Renamed' }).where(eq(registration.id, 'c2'))
    expect(await names()).toContain('Renamed')
  })
})
