import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Value } from 'typebox/value'
import { LearnerListResponseSchema, type Learner, type LearnerListResponse } from '@portal/shared'
import { buildTestApp, type TestContext } from '../../test/helpers'
import {
  TRICKY_NAME,
  insertDispatches,
  insertRegistrations,
  jsonTestRegistrations,
  type RegistrationInput,
} from '../dispatches/dispatches.test-data'

/**
 * The learner list's learners are written as JSON by PostgreSQL (learners.sql.ts rowsJsonSql).
 * Each must be what the server's mapping gave before: the average score 0..1 (the provider's
 * scaled score is 0..100), whole seconds rounded as Math.round does, dates as toISOString, text
 * escaped, on every way a page is read: the index walk, a page nearer the end, a status, a course,
 * a gathered search and a short one.
 */
let t: TestContext
let admin: { 'x-auth-token': string }

const TRICKY = TRICKY_NAME
const rows = jsonTestRegistrations('lj', (i) => (i % 4 ? 'lj-d1' : 'lj-d2'))

/** A learner of one registration, as the list shows them. */
function expected(row: RegistrationInput): Learner {
  return {
    email: row.learnerEmail!,
    learnerId: row.learnerId!,
    firstName: row.learnerFirstName!,
    lastName: row.learnerLastName!,
    courses: 1,
    completed: row.completionStatus === 'completed' ? 1 : 0,
    inProgress: row.completionStatus === 'incomplete' ? 1 : 0,
    notStarted: row.completionStatus === 'not attempted' ? 1 : 0,
    averageScore: row.scoreScaled === null || row.scoreScaled === undefined ? null : row.scoreScaled / 100,
    totalTime: Math.round(row.totalSecondsTracked ?? 0),
    lastAccessDate: row.lastAccessDate?.toISOString() ?? null,
  }
}
const byEmail = new Map(rows.map((row) => [row.learnerEmail!, expected(row)]))

beforeAll(async () => {
  t = await buildTestApp()
  admin = (await t.loginAs('admin')).headers
  await insertDispatches(t.database.db, [
    { id: 'lj-d1', destinationId: 'company-lj', courseId: 'lj-c1' },
    { id: 'lj-d2', destinationId: 'company-lj', courseId: 'lj-c2' },
  ])
  await insertRegistrations(t.database.db, rows)
})
afterAll(async () => t.close())

async function learners(query: string): Promise<LearnerListResponse> {
  const res = await t.app.inject({ method: 'GET', url: `/api/learners?companyId=company-lj&${query}`, headers: admin })
  expect(res.statusCode, res.body).toBe(200)
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
  const body = res.json<LearnerListResponse>()
  expect(Value.Check(LearnerListResponseSchema, body)).toBe(true)
  for (const learner of body.learners) expect(learner).toStrictEqual(byEmail.get(learner.email))
  return body
}
const emailsOf = (body: LearnerListResponse) => body.learners.map((l) => l.email)

describe('learners written by PostgreSQL', () => {
  it('are the learners in the report’s units, escaping, rounding and dates included', async () => {
    const body = await learners('pageSize=100')
    expect(body.learners).toHaveLength(62)
    const tricky = body.learners.find((l) => l.learnerId === 'tricky')!
    expect(tricky).toMatchObject({ firstName: TRICKY, averageScore: 0.875, totalTime: 3 })
    expect(tricky.lastAccessDate).toBe('2026-03-04T05:06:07.089Z')
    expect(body.learners.find((l) => l.learnerId === 'nora')).toMatchObject({
      averageScore: null,
      lastAccessDate: null,
    })
  })

  it('sums a learner of several registrations', async () => {
    await insertRegistrations(t.database.db, [
      {
        id: 'lj-again',
        dispatchId: 'lj-d2',
        learnerId: 'nora',
        learnerFirstName: 'Nora',
        learnerLastName: 'Null',
        learnerEmail: '',
        completionStatus: 'completed',
        successStatus: 'passed',
        scoreScaled: 50,
        totalSecondsTracked: 7.5,
        lastAccessDate: new Date('2026-04-01T00:00:00.000Z'),
      },
    ])
    // Without an e-mail, Nora is one learner by her learner id.
    byEmail.set('', {
      ...byEmail.get('')!,
      courses: 2,
      completed: 1,
      averageScore: 0.5,
      totalTime: 8,
      lastAccessDate: '2026-04-01T00:00:00.000Z',
    })
    const body = await learners('search=nora')
    expect(body.learners).toHaveLength(1)
  })

  it('come in the same order on every path, and the pages join up', async () => {
    for (const sort of ['sort=name', 'sort=lastAccess&order=desc', 'sort=averageScore&order=asc']) {
      const all = emailsOf(await learners(`pageSize=100&${sort}`))
      const pages: string[] = []
      // Pages past the middle are walked from the end.
      for (const page of [1, 2, 3]) pages.push(...emailsOf(await learners(`pageSize=25&page=${page}&${sort}`)))
      expect(pages).toEqual(all)
      const odd = emailsOf(await learners(`search=odd&pageSize=25&page=2&${sort}`))
      expect(odd).toHaveLength(5)
      const started = emailsOf(await learners(`status=incomplete&pageSize=100&${sort}`))
      expect(started).toEqual(all.filter((email) => byEmail.get(email)!.inProgress > 0))
      const course = emailsOf(await learners(`courseId=lj-c2&pageSize=100&${sort}`))
      expect(course).toEqual(
        all.filter((email) => rows.some((r) => r.learnerEmail === email && r.dispatchId === 'lj-d2') || email === ''),
      )
    }
    const short = await learners('search=Zo')
    expect(short.learners.map((l) => l.learnerId)).toEqual(['tricky'])
  })

  it('answer an empty array past the end, and for no company', async () => {
    const body = await learners('pageSize=50&page=9')
    expect(body.learners).toEqual([])
    expect(body.pagination.totalItems).toBe(62)
    const res = await t.app.inject({ method: 'GET', url: '/api/learners', headers: admin })
    expect(res.json()).toMatchObject({ learners: [], pagination: { totalItems: 0 } })
  })
})
