import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { desc, eq } from 'drizzle-orm'
import ExcelJS from 'exceljs'
import { LEARNER_EXPORT_COLUMNS, type LearnerRegistrationsResponse } from '@portal/shared'
import { activityLog, companyLearner, companyLearnerStat, dispatch, registration } from '../../db/schema'
import { buildTestApp, type TestContext } from '../../test/helpers'
import { parseCsv } from '../activity-logs/logs.test-support'
import { insertDispatches, insertRegistrations } from '../dispatches/dispatches.test-data'
import { emails, listLearners, person } from './learners.test-support'

/** /api/learners — one row per learner across a company's dispatches. */
let t: TestContext
let admin: { 'x-auth-token': string }
let client: { 'x-auth-token': string }
let otherClient: { 'x-auth-token': string }

const at = (iso: string) => new Date(iso)

beforeAll(async () => {
  t = await buildTestApp()
  await insertDispatches(t.database.db, [
    { id: 'ln-d1', destinationId: 'ln-a', courseId: 'ln-c1', courseTitle: 'Safety' },
    { id: 'ln-d2', destinationId: 'ln-a', courseId: 'ln-c2', courseTitle: 'Privacy' },
    { id: 'ln-d3', destinationId: 'ln-b', courseId: 'ln-c1', courseTitle: 'Safety' },
    { id: 'ln-gone', destinationId: 'ln-a', courseId: 'ln-c3', courseTitle: 'Gone', removedAt: new Date() },
  ])
  admin = (await t.loginAs('admin')).headers
  client = (await t.loginAs('client', { companyId: 'ln-a' })).headers
  otherClient = (await t.loginAs('client', { companyId: 'ln-b' })).headers
  const ann = person('Ann', 'Archer', 'ann@example.test')
  await insertRegistrations(t.database.db, [
    {
      id: 'ln-r1',
      dispatchId: 'ln-d1',
      ...ann,
      completionStatus: 'completed',
      successStatus: 'passed',
      scoreScaled: 90,
      totalSecondsTracked: 100,
      lastAccessDate: at('2026-03-01T10:00:00Z'),
      completedDate: at('2026-03-01T10:00:00Z'),
    },
    // Ann again, another case of her e-mail, in the other course: one learner.
    {
      id: 'ln-r2',
      dispatchId: 'ln-d2',
      ...ann,
      learnerEmail: 'ANN@example.test',
      completionStatus: 'incomplete',
      scoreScaled: 70,
      totalSecondsTracked: 50,
      lastAccessDate: at('2026-03-05T10:00:00Z'),
    },
    {
      id: 'ln-r3',
      dispatchId: 'ln-d1',
      ...person('=cmd', 'Bell', 'bob@example.test'),
      completionStatus: 'not attempted',
    },
    {
      id: 'ln-r4',
      dispatchId: 'ln-d2',
      ...person('Cara', 'Cole', 'cara@example.test'),
      completionStatus: 'completed',
      totalSecondsTracked: 3600,
      lastAccessDate: at('2026-02-01T00:00:00Z'),
    },
    // Another company's learner, and a registration of a removed dispatch.
    { id: 'ln-r5', dispatchId: 'ln-d3', ...person('Dan', 'Other', 'dan@example.test'), completionStatus: 'completed' },
    { id: 'ln-r6', dispatchId: 'ln-gone', ...ann, completionStatus: 'completed' },
  ])
}, 120_000)
afterAll(async () => t?.close())

const list = async (query: string, headers = admin) => listLearners(t, query, headers)

describe('GET /api/learners', () => {
  it('lists one row per learner of the company with their aggregates', async () => {
    const body = await list('companyId=ln-a')
    expect(body.pagination).toEqual({ totalItems: 3, page: 1, pageSize: 50, totalPages: 1 })
    expect(body.courses).toEqual([
      { id: 'ln-c2', title: 'Privacy' },
      { id: 'ln-c1', title: 'Safety' },
    ])
    const ann = body.learners.find((l) => l.email.toLowerCase() === 'ann@example.test')!
    expect(ann).toEqual({
      email: 'ANN@example.test', // from her most recently accessed registration
      learnerId: '',
      firstName: 'Ann',
      lastName: 'Archer',
      courses: 2,
      completed: 1,
      inProgress: 1,
      notStarted: 0,
      averageScore: 0.8,
      totalTime: 150,
      lastAccessDate: '2026-03-05T10:00:00.000Z',
    })
  })

  it('a client sees its own company only, whatever companyId it sends', async () => {
    expect(emails(await list('', client)).sort()).toEqual(['ann@example.test', 'bob@example.test', 'cara@example.test'])
    expect(emails(await list('companyId=ln-b', client))).not.toContain('dan@example.test')
    expect(emails(await list('companyId=ln-a', otherClient))).toEqual(['dan@example.test'])
  })

  it('staff without a company get nothing (they pick one first)', async () => {
    const body = await list('')
    expect(body.learners).toEqual([])
    expect(body.pagination.totalItems).toBe(0)
  })

  it('searches by name or e-mail, filters by course and status', async () => {
    expect(emails(await list('companyId=ln-a&search=cara'))).toEqual(['cara@example.test'])
    expect(emails(await list('companyId=ln-a&search=Arch'))).toEqual(['ann@example.test'])
    expect(emails(await list('companyId=ln-a&courseId=ln-c1')).sort()).toEqual(['ann@example.test', 'bob@example.test'])
    expect(emails(await list('companyId=ln-a&status=completed')).sort()).toEqual([
      'ann@example.test',
      'cara@example.test',
    ])
    expect(emails(await list('companyId=ln-a&courseId=ln-c2&status=completed'))).toEqual(['cara@example.test'])
    const none = await list('companyId=ln-a&courseId=ln-c3')
    expect(none.pagination.totalItems).toBe(0)
  })

  it('sorts by any column, both ways, and pages', async () => {
    expect(emails(await list('companyId=ln-a&sort=name'))).toEqual([
      'bob@example.test', // "=cmd Bell"
      'ann@example.test',
      'cara@example.test',
    ])
    expect(emails(await list('companyId=ln-a&sort=totalTime&order=desc'))).toEqual([
      'cara@example.test',
      'ann@example.test',
      'bob@example.test',
    ])
    // Never accessed is the oldest; unscored is below every score.
    expect(emails(await list('companyId=ln-a&sort=lastAccess&order=asc'))[0]).toBe('bob@example.test')
    expect(emails(await list('companyId=ln-a&sort=averageScore&order=desc'))[0]).toBe('ann@example.test')
    const page2 = await list('companyId=ln-a&sort=email&pageSize=25&page=2')
    expect(page2.learners).toEqual([])
    expect(page2.pagination.totalItems).toBe(3)
  })

  it('sorts a search the same way (its page is taken from the search matches)', async () => {
    expect(emails(await list('companyId=ln-a&search=example&sort=name'))).toEqual([
      'bob@example.test',
      'ann@example.test',
      'cara@example.test',
    ])
    expect(emails(await list('companyId=ln-a&search=example&sort=totalTime&order=desc'))).toEqual([
      'cara@example.test',
      'ann@example.test',
      'bob@example.test',
    ])
    expect(emails(await list('companyId=ln-a&search=example&status=completed&sort=name&order=desc'))).toEqual([
      'cara@example.test',
      'ann@example.test',
    ])
    const page2 = await list('companyId=ln-a&search=example&sort=email&pageSize=25&page=2')
    expect(page2.learners).toEqual([])
    expect(page2.pagination.totalItems).toBe(3)
    // A search's rows are the list's rows, field for field.
    const all = await list('companyId=ln-a&sort=email')
    const searched = await list('companyId=ln-a&search=exam&sort=email&order=asc')
    expect(searched.learners).toEqual(all.learners)
    expect(searched.learners.some((l) => l.lastAccessDate !== null && l.averageScore !== null)).toBe(true)
  })

  it('says while a first full sync is still building the company (migration 0021)', async () => {
    const mark = (building: boolean) =>
      t.database.db.update(companyLearnerStat).set({ building }).where(eq(companyLearnerStat.companyId, 'ln-a'))
    expect((await list('companyId=ln-a')).building).toBe(false)
    await mark(true)
    try {
      expect((await list('companyId=ln-a')).building).toBe(true)
      expect((await list('companyId=ln-a&search=ann&status=completed', client)).building).toBe(true)
      // Another company's flag is not this one's.
      expect((await list('', otherClient)).building).toBe(false)
    } finally {
      await mark(false)
    }
    expect((await list('companyId=ln-a')).building).toBe(false)
  })

  it('follows the registrations: a change, a removal, a dispatch moved to another company', async () => {
    await t.database.db.update(registration).set({ completionStatus: 'completed' }).where(eq(registration.id, 'ln-r3'))
    expect(emails(await list('companyId=ln-a&status=not%20attempted'))).toEqual([])
    await t.database.db.update(registration).set({ removedAt: new Date() }).where(eq(registration.id, 'ln-r4'))
    expect(emails(await list('companyId=ln-a')).sort()).toEqual(['ann@example.test', 'bob@example.test'])
    await t.database.db.update(dispatch).set({ destinationId: 'ln-b' }).where(eq(dispatch.id, 'ln-d2'))
    const ann = (await list('companyId=ln-a&search=ann')).learners[0]!
    expect([ann.courses, ann.email]).toEqual([1, 'ann@example.test'])
    expect(emails(await list('companyId=ln-b')).sort()).toEqual(['ann@example.test', 'dan@example.test'])
    // Back as it was.
    await t.database.db.update(dispatch).set({ destinationId: 'ln-a' }).where(eq(dispatch.id, 'ln-d2'))
    await t.database.db.update(registration).set({ removedAt: null }).where(eq(registration.id, 'ln-r4'))
    await t.database.db
      .update(registration)
      .set({ completionStatus: 'not attempted' })
      .where(eq(registration.id, 'ln-r3'))
    const rows = await t.database.db.select().from(companyLearner).where(eq(companyLearner.companyId, 'ln-b'))
    expect(rows.map((r) => r.email)).toEqual(['dan@example.test'])
  })
})

describe('GET /api/learners/:email/registrations', () => {
  const regs = async (email: string, query = '', headers = admin) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/learners/${encodeURIComponent(email)}/registrations${query}`,
      headers,
    })
    expect(res.statusCode, res.body).toBe(200)
    return res.json<LearnerRegistrationsResponse>()
  }

  it('lists the learner’s registrations across the company’s courses, newest access first', async () => {
    const body = await regs('Ann@Example.test', '', client)
    expect(body.learner).toEqual({ email: 'ANN@example.test', firstName: 'Ann', lastName: 'Archer' })
    expect(body.registrations.map((r) => [r.id, r.dispatchId, r.courseTitle, r.score])).toEqual([
      ['ln-r2', 'ln-d2', 'Privacy', 0.7],
      ['ln-r1', 'ln-d1', 'Safety', 0.9],
    ])
    expect(body.registrations[1]!.completedDate).toBe('2026-03-01T10:00:00.000Z')
  })

  it('never shows another company’s registrations to a client', async () => {
    expect((await regs('dan@example.test', '?companyId=ln-b', client)).registrations).toEqual([])
    expect((await regs('dan@example.test', '?companyId=ln-b')).registrations).toHaveLength(1)
  })
})

describe('GET /api/learners/export', () => {
  it('exports every learner of the filters as .xlsx, cell for cell the list, and logs it', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/learners/export?format=xlsx&companyId=ln-a&sort=email',
      headers: client,
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.headers['content-disposition']).toBe('attachment; filename="ln-a - learners.xlsx"')
    const workbook = new ExcelJS.Workbook()
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer)
    const sheet = workbook.worksheets[0]!
    expect(sheet.getRow(1).values).toEqual([undefined, ...LEARNER_EXPORT_COLUMNS])
    const listed = (await list('companyId=ln-a&sort=email', client)).learners
    expect(sheet.rowCount).toBe(listed.length + 1)
    listed.forEach((l, i) => {
      const row = sheet.getRow(i + 2)
      expect(row.getCell(3).value).toBe(l.email)
      expect(row.getCell(4).value).toBe(l.courses)
      expect(row.getCell(8).value).toBe(l.averageScore === null ? null : l.averageScore * 100)
      expect(row.getCell(9).value).toBe(l.totalTime)
      // A real Excel date (a number with a date format), the same instant.
      const access = row.getCell(11).value
      expect(access === null ? null : (access as Date).toISOString()).toBe(l.lastAccessDate)
    })
    // A name that looks like a formula is text in the workbook, never a formula.
    expect(sheet.getRow(3).getCell(1).value).toBe('=cmd')
    const [logged] = await t.database.db.select().from(activityLog).orderBy(desc(activityLog.id)).limit(1)
    expect(logged!.action).toBe('REPORT_EXPORTED')
    expect(logged!.details).toEqual({
      report: 'learners',
      companyId: 'ln-a',
      format: 'xlsx',
      filters: { companyId: 'ln-a', sort: 'email', order: 'asc' },
      rowCount: 3,
      completed: true,
    })
  })

  it('exports CSV with the formula guard, filtered like the list', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/learners/export?format=csv&companyId=ln-a&courseId=ln-c1&sort=name',
      headers: admin,
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/csv/)
    const records = parseCsv(res.body.replace(/^\uFEFF/, ''))
    expect(records[0]).toEqual([...LEARNER_EXPORT_COLUMNS])
    expect(records.slice(1).map((r) => [r[0], r[2], r[3]])).toEqual([
      ["'=cmd", 'bob@example.test', '1'],
      ['Ann', 'ANN@example.test', '2'],
    ])
  })
})
