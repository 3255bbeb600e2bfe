import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Value } from 'typebox/value'
import { ReportResponseSchema, type ReportRegistration, type ReportResponse } from '@portal/shared'
import { buildTestApp, type TestContext } from '../../test/helpers'
import {
  TRICKY_NAME,
  insertDispatches,
  insertRegistrations,
  jsonTestRegistrations,
  type RegistrationInput,
} from '../dispatches/dispatches.test-data'

/**
 * The report's registrations are written as JSON by PostgreSQL (reports.repository.ts
 * rowsJsonSql). Each must be what docs/product-decisions.md D25's units give (below, as the server computed them
 * before), escaping, rounding and dates included, on every way a page is read: the kept walk, a
 * page nearer the end, a date window, a gathered search and a search past what is gathered.
 */
let t: TestContext
let admin: { 'x-auth-token': string }

const TRICKY = TRICKY_NAME
const rows = jsonTestRegistrations('js', () => 'rep-json')

/** The units of docs/product-decisions.md D25: score 0..1 (the provider's scaled score is 0..100), whole seconds. */
function expected(row: RegistrationInput): ReportRegistration {
  return {
    id: row.id,
    learnerFirstName: row.learnerFirstName!,
    learnerLastName: row.learnerLastName!,
    learnerEmail: row.learnerEmail!,
    completionStatus: row.completionStatus!,
    successStatus: row.successStatus!,
    score: row.scoreScaled === null || row.scoreScaled === undefined ? null : row.scoreScaled / 100,
    totalTimeTracked: Math.round(row.totalSecondsTracked ?? 0),
    lastAccessDate: row.lastAccessDate?.toISOString() ?? null,
  }
}
const byId = new Map(rows.map((row) => [row.id, expected(row)]))

beforeAll(async () => {
  t = await buildTestApp()
  admin = (await t.loginAs('admin')).headers
  await insertDispatches(t.database.db, [{ id: 'rep-json', destinationId: 'company-j' }])
  await insertRegistrations(t.database.db, rows)
})
afterAll(async () => t.close())

async function report(query: string): Promise<ReportResponse> {
  const res = await t.app.inject({ method: 'GET', url: `/api/reports/dispatch/rep-json?${query}`, headers: admin })
  expect(res.statusCode, res.body).toBe(200)
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
  const body = res.json<ReportResponse>()
  expect(Value.Check(ReportResponseSchema, body)).toBe(true)
  for (const registration of body.registrations) expect(registration).toStrictEqual(byId.get(registration.id))
  return body
}

describe('report registrations written by PostgreSQL', () => {
  it('are the registrations in docs/product-decisions.md D25 units, escaping, rounding and dates included', async () => {
    const body = await report('pageSize=100')
    expect(body.registrations).toHaveLength(62)
    const tricky = body.registrations.find((r) => r.id === 'js-1')!
    expect(tricky).toMatchObject({ learnerFirstName: TRICKY, score: 0.875, totalTimeTracked: 3 })
    expect(tricky.lastAccessDate).toBe('2026-03-04T05:06:07.089Z')
    expect(body.registrations.find((r) => r.id === 'js-2')).toMatchObject({ score: null, lastAccessDate: null })
    // Never-accessed last, as the report orders them.
    expect(body.registrations.at(-1)!.lastAccessDate).toBeNull()
  })

  it('come in the same order on every path, and the pages join up', async () => {
    const all = (await report('pageSize=100')).registrations.map((r) => r.id)
    const pages: string[] = []
    for (const page of [1, 2, 3, 4, 5, 6, 7])
      pages.push(...(await report(`pageSize=10&page=${page}`)).registrations.map((r) => r.id))
    expect(pages).toEqual(all)
    const window = await report('startDate=2026-02-05&endDate=2026-02-20&pageSize=25')
    expect(window.registrations.length).toBeGreaterThan(0)
    const searched = await report('search=odd&pageSize=10&page=2')
    expect(searched.registrations.map((r) => r.learnerLastName)).toEqual(Array(10).fill('Odd'))
    const withStatus = await report('search=Zo&status=completed')
    expect(withStatus.registrations.map((r) => r.id)).toEqual(['js-1'])
  })

  it('answer an empty array past the end', async () => {
    const body = await report('pageSize=50&page=9')
    expect(body.registrations).toEqual([])
    expect(body.pagination.totalItems).toBe(62)
  })
})
