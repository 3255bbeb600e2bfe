import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import type { ReportResponse } from '@portal/shared'
import { registration } from '../../db/schema'
import { buildTestApp, type TestContext } from '../../test/helpers'
import { insertDispatches, insertRegistrations } from '../dispatches/dispatches.test-data'

/**
 * The completion report's repeat-learners filter: only the registrations of learners holding more
 * than one live registration on the dispatch, the licence count's over-count.
 */

let t: TestContext
let admin: { 'x-auth-token': string }

const learner = (n: number, email = `l${n}@repeat.test`) => ({
  learnerFirstName: `L${n}`,
  learnerLastName: 'Repeat',
  learnerEmail: email,
  learnerId: `id-${n}`,
})

beforeAll(async () => {
  t = await buildTestApp()
  admin = (await t.loginAs('admin')).headers
  await insertDispatches(t.database.db, [
    { id: 'rl-a', destinationId: 'company-a' },
    { id: 'rl-b', destinationId: 'company-b' },
  ])
  await insertRegistrations(t.database.db, [
    // L1: three registrations (one completed), the e-mail in two cases is one learner.
    { id: 'a1', dispatchId: 'rl-a', ...learner(1), completionStatus: 'completed' },
    { id: 'a2', dispatchId: 'rl-a', ...learner(1, 'L1@Repeat.test'), learnerId: 'id-1b' },
    { id: 'a3', dispatchId: 'rl-a', ...learner(1) },
    // L2: one registration.
    { id: 'a4', dispatchId: 'rl-a', ...learner(2), completionStatus: 'completed' },
    // L3: two registrations.
    { id: 'a5', dispatchId: 'rl-a', ...learner(3) },
    { id: 'a6', dispatchId: 'rl-a', ...learner(3) },
    // L4: one live registration and one removed: not a repeat learner.
    { id: 'a7', dispatchId: 'rl-a', ...learner(4) },
    { id: 'a8', dispatchId: 'rl-a', ...learner(4), removedAt: new Date() },
    // L5 once here, and again on another dispatch: licences are per dispatch.
    { id: 'a9', dispatchId: 'rl-a', ...learner(5) },
    { id: 'b1', dispatchId: 'rl-b', ...learner(5) },
    { id: 'b2', dispatchId: 'rl-b', ...learner(6) },
    { id: 'b3', dispatchId: 'rl-b', ...learner(6) },
  ])
  await t.database.db
    .update(registration)
    .set({ lastAccessDate: new Date('2026-03-01T10:00:00Z') })
    .where(eq(registration.id, 'a1'))
})
afterAll(async () => t.close())

const report = (id: string, query: string, headers = admin) =>
  t.app.inject({ method: 'GET', url: `/api/reports/dispatch/${id}${query}`, headers })
const ok = async (query: string, headers = admin) => {
  const res = await report('rl-a', query, headers)
  expect(res.statusCode, res.body).toBe(200)
  return res.json<ReportResponse>()
}
const ids = (body: ReportResponse) => body.registrations.map((r) => r.id).sort()

describe('GET /api/reports/dispatch/:id?repeatLearners=true', () => {
  it('lists exactly the registrations of learners with more than one, with totals that agree', async () => {
    const body = await ok('?repeatLearners=true')
    expect(ids(body)).toEqual(['a1', 'a2', 'a3', 'a5', 'a6'])
    expect(body.pagination.totalItems).toBe(5)
    expect(body.distinctLearners).toBe(2)
    // Off, or false: every live registration.
    expect((await ok('')).pagination.totalItems).toBe(8)
    expect((await ok('?repeatLearners=false')).pagination.totalItems).toBe(8)
  })

  it('pages the filtered rows: the pages together are the filter, the totals the same on each', async () => {
    const first = await ok('?repeatLearners=true&pageSize=10&page=1')
    expect(first.pagination).toMatchObject({ totalItems: 5, totalPages: 1, page: 1 })
    const past = await ok('?repeatLearners=true&pageSize=10&page=2')
    expect(past.registrations).toEqual([])
    expect(past.pagination.totalItems).toBe(5)
    // The report's order: accessed first (a1), then by id.
    expect(first.registrations.map((r) => r.id)).toEqual(['a1', 'a2', 'a3', 'a5', 'a6'])
  })

  it('combines with the other filters: a learner repeats on the dispatch, whatever the status or search', async () => {
    const completed = await ok('?repeatLearners=true&status=completed')
    expect(ids(completed)).toEqual(['a1'])
    expect([completed.pagination.totalItems, completed.distinctLearners]).toEqual([1, 1])
    expect(ids(await ok('?repeatLearners=true&search=L3'))).toEqual(['a5', 'a6'])
    expect(ids(await ok('?repeatLearners=true&search=l'))).toEqual(['a1', 'a2', 'a3', 'a5', 'a6'])
    expect(ids(await ok('?repeatLearners=true&startDate=2026-03-01&endDate=2026-03-01'))).toEqual(['a1'])
  })

  it('follows a change: a learner whose extra registration is removed leaves the filter', async () => {
    await t.database.db.update(registration).set({ removedAt: new Date() }).where(eq(registration.id, 'a6'))
    try {
      expect(ids(await ok('?repeatLearners=true'))).toEqual(['a1', 'a2', 'a3'])
    } finally {
      await t.database.db.update(registration).set({ removedAt: null }).where(eq(registration.id, 'a6'))
    }
    expect(ids(await ok('?repeatLearners=true'))).toEqual(['a1', 'a2', 'a3', 'a5', 'a6'])
  })

  it('refuses a value that is not a boolean with a 400 naming the parameter', async () => {
    for (const bad of ['yes', '2', 'truthy']) {
      const res = await report('rl-a', `?repeatLearners=${bad}`)
      expect(res.statusCode, bad).toBe(400)
      expect(res.body).toMatch(/repeatLearners/)
    }
  })

  it('keeps client scoping: a client sees its own company’s repeats, another company’s dispatch is not found', async () => {
    const client = (await t.loginAs('client', { companyId: 'company-a' })).headers
    expect(ids(await ok('?repeatLearners=true', client))).toEqual(['a1', 'a2', 'a3', 'a5', 'a6'])
    const foreign = await report('rl-b', '?repeatLearners=true', client)
    expect(foreign.statusCode).toBe(404)
    const other = (await t.loginAs('client', { companyId: 'company-b' })).headers
    const own = await report('rl-b', '?repeatLearners=true', other)
    expect(own.statusCode, own.body).toBe(200)
    expect(ids(own.json<ReportResponse>())).toEqual(['b2', 'b3'])
  })

  it('exports the same rows when the export is asked with the filter', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/reports/dispatch/rl-a/export?format=csv&repeatLearners=true',
      headers: admin,
    })
    expect(res.statusCode, res.body).toBe(200)
    const lines = res.body.trim().split(/\r?\n/)
    expect(lines).toHaveLength(1 + 5)
    expect(lines.slice(1).filter((line) => line.includes('L1,')).length).toBe(3)
    expect(lines.slice(1).filter((line) => line.includes('L3,')).length).toBe(2)
    const refused = await t.app.inject({
      method: 'GET',
      url: '/api/reports/dispatch/rl-a/export?format=csv&repeatLearners=maybe',
      headers: admin,
    })
    expect(refused.statusCode).toBe(400)
  })
})
