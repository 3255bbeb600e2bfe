import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import type { ReportResponse } from '@portal/shared'
import { registration } from '../../db/schema'
import { buildTestApp, type TestContext } from '../../test/helpers'
import { insertDispatches, insertRegistrations } from '../dispatches/dispatches.test-data'

let t: TestContext
let admin: { 'x-auth-token': string }

const at = (iso: string) => new Date(iso)
const learner = (first: string, last: string, email: string, learnerId = '') => ({
  learnerFirstName: first,
  learnerLastName: last,
  learnerEmail: email,
  learnerId,
})

beforeAll(async () => {
  t = await buildTestApp()
  admin = (await t.loginAs('admin')).headers
  await insertDispatches(t.database.db, [
    { id: 'rep-a', destinationId: 'company-a', tags: ['t'], notes: 'secret' },
    { id: 'rep-b', destinationId: 'company-b' },
    { id: 'rep-gone', destinationId: 'company-a', removedAt: new Date() },
  ])
  const ann = learner('Ann', 'Archer', 'ann@example.test', 'L-1')
  const cara = learner('Cara', 'Cole', '', 'L-4')
  await insertRegistrations(t.database.db, [
    { id: 'r1', dispatchId: 'rep-a', ...ann, completionStatus: 'completed', successStatus: 'passed' },
    { id: 'r2', dispatchId: 'rep-a', ...learner('Bob', 'Baker', 'BOB@example.TEST'), completionStatus: 'incomplete' },
    // Ann again, another case of the same email: one learner, two registrations.
    { id: 'r3', dispatchId: 'rep-a', ...ann, learnerEmail: 'Ann@Example.test', learnerId: 'L-9' },
    { id: 'r4', dispatchId: 'rep-a', ...cara, completionStatus: 'completed', successStatus: 'failed' },
    { id: 'r5', dispatchId: 'rep-a', ...cara, completionStatus: 'completed' },
    { id: 'r6', dispatchId: 'rep-a', ...learner('Rem', 'Oved', 'rem@example.test'), removedAt: new Date() },
    { id: 'r7', dispatchId: 'rep-b', ...learner('Ann', 'Other', 'ann.other@example.test') },
    { id: 'r8', dispatchId: 'rep-gone', ...ann },
  ])
  const set = (id: string, values: Partial<typeof registration.$inferInsert>) =>
    t.database.db.update(registration).set(values).where(eq(registration.id, id))
  await set('r1', { scoreScaled: 85.5, totalSecondsTracked: 125.4, lastAccessDate: at('2026-03-01T10:00:00Z') })
  await set('r2', { scoreScaled: null, totalSecondsTracked: 59.6, lastAccessDate: at('2026-03-02T23:59:59Z') })
  await set('r4', { scoreScaled: 40, totalSecondsTracked: 3600, lastAccessDate: at('2026-03-03T00:00:00Z') })
  await set('r5', { lastAccessDate: at('2026-02-28T12:00:00Z') })
})
afterAll(async () => t.close())

const report = async (id: string, query = '', headers = admin) =>
  t.app.inject({ method: 'GET', url: `/api/reports/dispatch/${id}${query}`, headers })
const ok = async (query = '', headers = admin) => {
  const res = await report('rep-a', query, headers)
  expect(res.statusCode, res.body).toBe(200)
  return res.json<ReportResponse>()
}
const ids = (body: ReportResponse) => body.registrations.map((r) => r.id)

describe('GET /api/reports/dispatch/:id', () => {
  it('gives the kept totals of every status, read with the dispatch: rows and distinct learners', async () => {
    await insertDispatches(t.database.db, [
      { id: 'kept-k', destinationId: 'company-a' },
      { id: 'kept-empty', destinationId: 'company-a' },
    ])
    const l = (n: number) => learner(`L${n}`, 'Kept', `l${n}@kept.test`)
    await insertRegistrations(t.database.db, [
      { id: 'k1', dispatchId: 'kept-k', ...l(1), completionStatus: 'incomplete' },
      { id: 'k2', dispatchId: 'kept-k', ...l(1), completionStatus: 'incomplete' },
      { id: 'k3', dispatchId: 'kept-k', ...l(2), completionStatus: 'incomplete' },
      { id: 'k4', dispatchId: 'kept-k', ...l(3), completionStatus: 'completed' },
      { id: 'k5', dispatchId: 'kept-k', ...l(4), completionStatus: 'completed' },
      { id: 'k6', dispatchId: 'kept-k', ...l(4), completionStatus: 'not attempted' },
      { id: 'k7', dispatchId: 'kept-k', ...l(5), completionStatus: 'completed', removedAt: new Date() },
    ])
    const totals = async (id: string, status = '') => {
      const res = await report(id, status ? `?status=${encodeURIComponent(status)}` : '')
      const body = res.json<ReportResponse>()
      return [res.statusCode, body.pagination.totalItems, body.distinctLearners]
    }
    expect(await totals('kept-k')).toEqual([200, 6, 4])
    expect(await totals('kept-k', 'completed')).toEqual([200, 2, 2])
    expect(await totals('kept-k', 'incomplete')).toEqual([200, 3, 2])
    expect(await totals('kept-k', 'not attempted')).toEqual([200, 1, 1])
    expect(await totals('kept-empty')).toEqual([200, 0, 0])
  })

  it('lists the dispatch’s present registrations, newest access first, never-accessed last', async () => {
    const body = await ok()
    expect(ids(body)).toEqual(['r4', 'r2', 'r1', 'r5', 'r3'])
    expect(body.pagination).toEqual({ totalItems: 5, page: 1, pageSize: 100, totalPages: 1 })
    // Ann (two emails differing in case), Bob, Cara (no email: by learner id).
    expect(body.distinctLearners).toBe(3)
    expect(body.dispatch).toMatchObject({ id: 'rep-a', tags: ['t'], notes: 'secret' })
  })

  it('sends score as a fraction, time in whole seconds and ISO dates (docs/product-decisions.md D25 units)', async () => {
    const rows = Object.fromEntries((await ok()).registrations.map((r) => [r.id, r]))
    expect(rows.r1).toEqual({
      id: 'r1',
      learnerFirstName: 'Ann',
      learnerLastName: 'Archer',
      learnerEmail: 'ann@example.test',
      completionStatus: 'completed',
      successStatus: 'passed',
      score: 0.855,
      totalTimeTracked: 125,
      lastAccessDate: '2026-03-01T10:00:00.000Z',
    })
    expect(rows.r2).toMatchObject({ score: null, totalTimeTracked: 60 })
    expect(rows.r4).toMatchObject({ score: 0.4, totalTimeTracked: 3600 })
    expect(rows.r3).toMatchObject({ score: null, totalTimeTracked: 0, lastAccessDate: null })
  })

  it.each([
    ['ann', ['r1', 'r3'], 1],
    ['ARCHER', ['r1', 'r3'], 1],
    ['ann arch', ['r1', 'r3'], 1],
    ['bob@EXAMPLE', ['r2'], 1],
    ['cole', ['r4', 'r5'], 1],
    ['example.test', ['r2', 'r1', 'r3'], 2],
    ['%', [], 0],
  ])('searches learner names and email: %s', async (search, expected, learners) => {
    const body = await ok(`?search=${encodeURIComponent(search)}`)
    expect(ids(body)).toEqual(expected)
    expect(body.distinctLearners).toBe(learners)
    expect(body.pagination.totalItems).toBe(expected.length)
  })

  it.each([
    ['completed', ['r4', 'r1', 'r5']],
    ['incomplete', ['r2']],
    ['not attempted', ['r3']],
    ['', ['r4', 'r2', 'r1', 'r5', 'r3']],
  ])('filters by completion status %j', async (status, expected) => {
    expect(ids(await ok(`?status=${encodeURIComponent(status)}`))).toEqual(expected)
  })

  it('filters by last access over inclusive days, and refuses an end before the start', async () => {
    expect(ids(await ok('?startDate=2026-03-01&endDate=2026-03-02'))).toEqual(['r2', 'r1'])
    expect(ids(await ok('?startDate=2026-03-03&endDate=2026-03-03'))).toEqual(['r4'])
    expect(ids(await ok('?startDate=2026-03-02'))).toEqual(['r4', 'r2'])
    expect(ids(await ok('?endDate=2026-02-28'))).toEqual(['r5'])
    expect(ids(await ok('?startDate=&endDate=&status=completed'))).toEqual(['r4', 'r1', 'r5'])
    const res = await report('rep-a', '?startDate=2026-03-02&endDate=2026-03-01')
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toBe('End date cannot be before start date.')
    expect((await report('rep-a', '?startDate=2026-02-30')).statusCode).toBe(400)
    expect((await report('rep-a', '?startDate=03/01/2026')).statusCode).toBe(400)
    expect((await report('rep-a', '?status=passed')).statusCode).toBe(400)
  })

  it('pages with the report sizes, default 100', async () => {
    await insertRegistrations(
      t.database.db,
      Array.from({ length: 12 }, (_, i) => ({ id: `pg-${String(i).padStart(2, '0')}`, dispatchId: 'rep-b' })),
    )
    const first = await report('rep-b', '?pageSize=10')
    const second = await report('rep-b', '?pageSize=10&page=2')
    expect(first.json().pagination).toEqual({ totalItems: 13, page: 1, pageSize: 10, totalPages: 2 })
    const all = [...first.json<ReportResponse>().registrations, ...second.json<ReportResponse>().registrations]
    // r7 has no last access either: with all dates null the id orders them.
    expect(all.map((r) => r.id)).toEqual([
      ...Array.from({ length: 12 }, (_, i) => `pg-${String(i).padStart(2, '0')}`),
      'r7',
    ])
    expect((await report('rep-b', '?pageSize=30')).statusCode).toBe(400)
  })

  it('scopes like the dispatch: 404 for another company’s, a removed or an unknown dispatch', async () => {
    const own = await t.loginAs('client', { companyId: 'company-a' })
    const body = await ok('', own.headers)
    expect(ids(body)).toHaveLength(5)
    expect(Object.keys(body.dispatch)).not.toContain('tags')
    expect(Object.keys(body.dispatch)).not.toContain('notes')
    for (const id of ['rep-b', 'rep-gone', 'unknown']) {
      const res = await report(id, '', own.headers)
      expect(res.statusCode, id).toBe(404)
      expect(res.json().message).toBe('Dispatch not found')
    }
    expect((await report('rep-gone')).statusCode).toBe(404)
    const sales = await t.loginAs('sales')
    expect(Object.keys((await ok('', sales.headers)).dispatch)).not.toContain('notes')
    const none = await t.loginAs('client', { companyId: null })
    expect((await report('rep-a', '', none.headers)).statusCode).toBe(404)
    expect((await t.app.inject({ method: 'GET', url: '/api/reports/dispatch/rep-a' })).statusCode).toBe(401)
  })
})

describe('GET /api/reports/registrations/count', () => {
  const count = async (headers = admin) => {
    const res = await t.app.inject({ method: 'GET', url: '/api/reports/registrations/count', headers })
    return { status: res.statusCode, body: res.json() }
  }

  it('counts present registration rows for staff and follows every kind of write', async () => {
    for (const role of ['admin', 'internal', 'sales'] as const) {
      const { headers } = await t.loginAs(role)
      expect(await count(headers)).toEqual({ status: 200, body: { databaseCount: expect.any(Number) } })
    }
    const base = (await count()).body.databaseCount as number
    const db = t.database.db
    await insertRegistrations(db, [
      { id: 'c1', dispatchId: 'rep-a' },
      { id: 'c2', dispatchId: 'rep-b' },
    ])
    expect((await count()).body.databaseCount).toBe(base + 2)
    await db.update(registration).set({ removedAt: new Date() }).where(eq(registration.id, 'c1'))
    expect((await count()).body.databaseCount).toBe(base + 1)
    // An upsert that moves a registration to another dispatch, as a sync page may.
    await db
      .insert(registration)
      .values({ id: 'c2', dispatchId: 'rep-a', courseId: 'x', completionStatus: 'completed', successStatus: 'unknown' })
      .onConflictDoUpdate({ target: registration.id, set: { dispatchId: 'rep-a' } })
    await db.delete(registration).where(eq(registration.id, 'c1'))
    expect((await count()).body.databaseCount).toBe(base + 1)
    const listed = await t.app.inject({ method: 'GET', url: '/api/dispatches?search=rep-', headers: admin })
    // rep-a: r1..r5 and c2; rep-b: r7 and 12 pg rows; rep-gone is removed and not listed.
    expect(listed.json().summary.activeRegistrations).toBe(6 + 13)
  })

  it('refuses clients (403) and callers without a token (401)', async () => {
    const { headers } = await t.loginAs('client', { companyId: 'company-a' })
    expect((await count(headers)).status).toBe(403)
    expect((await t.app.inject({ method: 'GET', url: '/api/reports/registrations/count' })).statusCode).toBe(401)
  })
})
