import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import type { DashboardCharts, DispatchCharts } from '@portal/shared'
import { dispatch, registration } from '../../db/schema'
import { buildTestApp, type TestContext } from '../../test/helpers'
import { insertDispatches, insertRegistrations } from '../dispatches/dispatches.test-data'
import { chartMonths, chartWeeks } from './charts.service'

let t: TestContext
let admin: { 'x-auth-token': string }
let sales: { 'x-auth-token': string }
let clientA: { 'x-auth-token': string }
let clientB: { 'x-auth-token': string }

const now = new Date()
const weeks = chartWeeks(now)
const months = chartMonths(now)
/** Noon of the day `days` after `day` (YYYY-MM-DD), UTC. */
const dayAt = (day: string, days = 0) => new Date(Date.parse(`${day}T12:00:00Z`) + days * 86_400_000)
const monthAt = (month: string) => dayAt(`${month}-10`)
const thisWeek = weeks[weeks.length - 1]!
const thisMonth = months[months.length - 1]!
const firstMonth = months[0]!
const longAgo = new Date(Date.parse(`${firstMonth}-01T00:00:00Z`) - 40 * 86_400_000)

beforeAll(async () => {
  t = await buildTestApp()
  admin = (await t.loginAs('admin')).headers
  sales = (await t.loginAs('sales')).headers
  await insertDispatches(t.database.db, [
    {
      id: 'ch-a1',
      destinationId: 'ch-company-a',
      courseTitle: 'Fire Safety',
      registrationCount: 9,
      registrationCap: 10,
    },
    { id: 'ch-a2', destinationId: 'ch-company-a', registrationCount: 1, registrationCap: 10, enabled: false },
    { id: 'ch-b1', destinationId: 'ch-company-b', registrationCount: 5, registrationCap: 0 },
    { id: 'ch-b2', destinationId: 'ch-company-b', registrationCount: 3, registrationCap: 4 },
    { id: 'ch-gone', destinationId: 'ch-company-a', registrationCount: 9, registrationCap: 9, removedAt: new Date() },
  ])
  clientA = (await t.loginAs('client', { companyId: 'ch-company-a' })).headers
  clientB = (await t.loginAs('client', { companyId: 'ch-company-b' })).headers
  await insertRegistrations(t.database.db, [
    // ch-a1: two completed this week (one passed, one failed), one completed 3 weeks ago,
    // one incomplete, one not attempted, one removed (never counted).
    {
      id: 'c1',
      dispatchId: 'ch-a1',
      completionStatus: 'completed',
      successStatus: 'passed',
      createdDate: monthAt(thisMonth),
      completedDate: dayAt(thisWeek),
    },
    {
      id: 'c2',
      dispatchId: 'ch-a1',
      completionStatus: 'completed',
      successStatus: 'failed',
      createdDate: monthAt(thisMonth),
      completedDate: dayAt(thisWeek, 1),
    },
    {
      id: 'c3',
      dispatchId: 'ch-a1',
      completionStatus: 'completed',
      successStatus: 'passed',
      createdDate: monthAt(firstMonth),
      completedDate: dayAt(weeks[weeks.length - 4]!),
    },
    { id: 'c4', dispatchId: 'ch-a1', completionStatus: 'incomplete', createdDate: monthAt(firstMonth) },
    { id: 'c5', dispatchId: 'ch-a1', createdDate: longAgo },
    {
      id: 'c6',
      dispatchId: 'ch-a1',
      completionStatus: 'completed',
      createdDate: monthAt(thisMonth),
      completedDate: dayAt(thisWeek),
      removedAt: new Date(),
    },
    // A completion older than the 26 weeks: in the status counts, not in the weeks.
    {
      id: 'c7',
      dispatchId: 'ch-a1',
      completionStatus: 'completed',
      createdDate: longAgo,
      completedDate: new Date(Date.parse(`${weeks[0]}T00:00:00Z`) - 86_400_000),
    },
    { id: 'c8', dispatchId: 'ch-a2', createdDate: monthAt(thisMonth) },
    { id: 'c9', dispatchId: 'ch-b1', createdDate: monthAt(thisMonth) },
    { id: 'c10', dispatchId: 'ch-b2', createdDate: monthAt(firstMonth) },
    { id: 'c11', dispatchId: 'ch-gone', createdDate: monthAt(thisMonth) },
  ])
})
afterAll(async () => t.close())

const get = (url: string, headers?: Record<string, string>) => t.app.inject({ method: 'GET', url, headers })
async function dispatchCharts(id: string, headers = admin): Promise<DispatchCharts> {
  const res = await get(`/api/reports/charts/dispatch/${id}`, headers)
  expect(res.statusCode, res.body).toBe(200)
  return res.json<DispatchCharts>()
}
async function dashboard(query = '', headers = admin): Promise<DashboardCharts> {
  const res = await get(`/api/reports/charts/dashboard${query}`, headers)
  expect(res.statusCode, res.body).toBe(200)
  return res.json<DashboardCharts>()
}
const perMonth = (body: DashboardCharts) => Object.fromEntries(body.months.map((m) => [m.month, m.registrations]))
const monthly = (values: Record<string, number>) =>
  Object.fromEntries(months.map((month) => [month, values[month] ?? 0]))

describe('GET /api/reports/charts/dispatch/:id', () => {
  it('counts completions per week (26 weeks, the current last) and the live registrations by status', async () => {
    const body = await dispatchCharts('ch-a1')
    expect(body.weeks).toHaveLength(26)
    expect(body.weeks.map((w) => w.week)).toEqual(weeks)
    const nonZero = body.weeks.filter((w) => w.completions > 0)
    expect(nonZero).toEqual([
      { week: weeks[weeks.length - 4], completions: 1 },
      { week: thisWeek, completions: 2 },
    ])
    expect(body.status).toEqual({
      registrations: 6,
      completed: 4,
      incomplete: 1,
      notStarted: 1,
      passed: 2,
      failed: 1,
      unknown: 3,
    })
  })

  it('lets a client read its own company’s dispatch, and answers 404 for another company’s or a removed one', async () => {
    expect((await dispatchCharts('ch-a1', clientA)).status.registrations).toBe(6)
    expect((await get('/api/reports/charts/dispatch/ch-a1', clientB)).statusCode).toBe(404)
    expect((await get('/api/reports/charts/dispatch/ch-gone', admin)).statusCode).toBe(404)
    expect((await get('/api/reports/charts/dispatch/nope', admin)).statusCode).toBe(404)
  })

  it('refuses a request without a session', async () => {
    expect((await get('/api/reports/charts/dispatch/ch-a1')).statusCode).toBe(401)
  })

  it('follows a registration change (the cache is per data version)', async () => {
    await dispatchCharts('ch-b1')
    await t.database.db
      .update(registration)
      .set({ completionStatus: 'completed', successStatus: 'passed', completedDate: dayAt(thisWeek) })
      .where(eq(registration.id, 'c9'))
    const body = await dispatchCharts('ch-b1')
    expect(body.status).toMatchObject({ completed: 1, notStarted: 0, passed: 1 })
    expect(body.weeks.at(-1)).toEqual({ week: thisWeek, completions: 1 })
  })
})

describe('GET /api/reports/charts/dashboard', () => {
  it('gives staff the registrations per month of every live dispatch and the ten nearest their cap', async () => {
    const body = await dashboard('', sales)
    expect(body.months.map((m) => m.month)).toEqual(months)
    // Created in the window: c1, c2, c8, c9 this month; c3, c4, c10 in the first month.
    // Before it: c5 and c7. Removed (c6) and of a removed dispatch (c11): never.
    expect(perMonth(body)).toEqual(monthly({ [thisMonth]: 4, [firstMonth]: 3 }))
    expect(body.months[0]!.cumulative).toBe(2 + 3)
    expect(body.months.at(-1)!.cumulative).toBe(9)
    // Capped: a1 9/10, a2 1/10, b2 3/4 (b1 has no cap; the removed one is left out).
    expect(body.nearestCap!.map((n) => n.id)).toEqual(['ch-a1', 'ch-b2', 'ch-a2'])
    expect(body.nearestCap![0]).toEqual({
      id: 'ch-a1',
      courseTitle: 'Fire Safety',
      destinationName: 'ch-company-a',
      registrationCount: 9,
      registrationCap: 10,
    })
    expect(body.usage).toEqual({ used: 13, capacity: 24, unlimited: 1 })
  })

  it('applies the dashboard filters: status and search', async () => {
    const disabled = await dashboard('?status=disabled')
    expect(perMonth(disabled)).toEqual(monthly({ [thisMonth]: 1 }))
    expect(disabled.nearestCap!.map((n) => n.id)).toEqual(['ch-a2'])
    const searched = await dashboard('?search=Fire')
    expect(perMonth(searched)).toEqual(monthly({ [thisMonth]: 2, [firstMonth]: 2 }))
    expect(searched.months.at(-1)!.cumulative).toBe(6)
    expect(searched.nearestCap!.map((n) => n.id)).toEqual(['ch-a1'])
    expect(searched.usage).toEqual({ used: 9, capacity: 10, unlimited: 0 })
    const company = await dashboard('?search=ch-company-b&status=enabled')
    expect(perMonth(company)).toEqual(monthly({ [thisMonth]: 1, [firstMonth]: 1 }))
  })

  it('gives a client its own company’s months and usage only, never the staff list', async () => {
    const body = await dashboard('', clientB)
    expect(perMonth(body)).toEqual(monthly({ [thisMonth]: 1, [firstMonth]: 1 }))
    expect(body.usage).toEqual({ used: 3, capacity: 4, unlimited: 1 })
    expect(body).not.toHaveProperty('nearestCap')
    // A search for another company's course finds nothing of it.
    const other = await dashboard('?search=Fire', clientB)
    expect(perMonth(other)).toEqual(monthly({}))
    expect(other.usage).toEqual({ used: 0, capacity: 0, unlimited: 0 })
  })

  it('moves a dispatch’s months when it is disabled (kept aggregates, new version)', async () => {
    expect(perMonth(await dashboard('?status=enabled', clientA))).toEqual(monthly({ [thisMonth]: 2, [firstMonth]: 2 }))
    await t.database.db.update(dispatch).set({ enabled: false }).where(eq(dispatch.id, 'ch-a1'))
    try {
      expect(perMonth(await dashboard('?status=enabled', clientA))).toEqual(monthly({}))
      expect(perMonth(await dashboard('?status=disabled', clientA))).toEqual(
        monthly({ [thisMonth]: 3, [firstMonth]: 2 }),
      )
    } finally {
      await t.database.db.update(dispatch).set({ enabled: true }).where(eq(dispatch.id, 'ch-a1'))
    }
    expect(perMonth(await dashboard('?status=enabled', clientA))).toEqual(monthly({ [thisMonth]: 2, [firstMonth]: 2 }))
  })

  it('answers empty for a client without a company, 401 without a session', async () => {
    const lone = (await t.loginAs('client', { companyId: null })).headers
    const body = await dashboard('', lone)
    expect(body.months.every((m) => m.registrations === 0)).toBe(true)
    expect(body).not.toHaveProperty('nearestCap')
    expect((await get('/api/reports/charts/dashboard')).statusCode).toBe(401)
  })
})

describe('chart routes in the OpenAPI document', () => {
  it('documents both routes with their bounded inputs and their answers', async () => {
    const doc = (await get('/api/docs/json')).json()
    const dispatchOp = doc.paths['/api/reports/charts/dispatch/{id}'].get
    expect(dispatchOp.tags).toEqual(['reports'])
    const weeks = dispatchOp.responses['200'].content['application/json'].schema.properties
    expect(Object.keys(weeks)).toEqual(['weeks', 'status'])
    expect(Object.keys(dispatchOp.responses)).toEqual(expect.arrayContaining(['200', '401', '404']))
    const dashboardOp = doc.paths['/api/reports/charts/dashboard'].get
    const search = dashboardOp.parameters.find((p: { name: string }) => p.name === 'search')
    expect(search.schema.maxLength).toBe(200)
    const status = dashboardOp.parameters.find((p: { name: string }) => p.name === 'status')
    expect(JSON.stringify(status.schema)).toMatch(/all.*enabled.*disabled/)
    expect(dashboardOp.responses['200'].content['application/json'].schema.properties).toHaveProperty('nearestCap')
  })

  it('refuses bad filters with a JSON 400 naming the field', async () => {
    const tooLong = await get(`/api/reports/charts/dashboard?search=${'x'.repeat(201)}`, admin)
    expect(tooLong.statusCode).toBe(400)
    expect(tooLong.json().details[0].field).toBe('search')
    const status = await get('/api/reports/charts/dashboard?status=everything', admin)
    expect(status.statusCode).toBe(400)
    expect(status.json().details[0].field).toBe('status')
  })
})
