import { setFlagsFromString } from 'node:v8'
import { Readable } from 'node:stream'
import { runInNewContext } from 'node:vm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { desc, sql, type SQLWrapper } from 'drizzle-orm'
import ExcelJS from 'exceljs'
import { REPORT_EXPORT_COLUMNS, type ReportResponse } from '@portal/shared'
import { activityLog } from '../../db/schema'
import { buildTestApp, type TestContext } from '../../test/helpers'
import { planNodes, type PlanNode } from '../../test/plan-nodes'
import { parseCsv } from '../activity-logs/logs.test-support'
import { insertDispatches, insertRegistrations } from '../dispatches/dispatches.test-data'
import { reportChunkQuery } from './reports.sql'

/** GET /api/reports/dispatch/{id}/export — every row of the report's filters, CSV or .xlsx. */
setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void
setFlagsFromString('--no-expose-gc')

let t: TestContext
let admin: { 'x-auth-token': string }
let client: { 'x-auth-token': string }
let otherClient: { 'x-auth-token': string }

const at = (iso: string) => new Date(iso)

beforeAll(async () => {
  t = await buildTestApp()
  await insertDispatches(t.database.db, [
    { id: 'ex-a', destinationId: 'ex-co-a' },
    { id: 'ex-b', destinationId: 'ex-co-b' },
    { id: 'ex-big', destinationId: 'ex-co-a' },
  ])
  admin = (await t.loginAs('admin')).headers
  client = (await t.loginAs('client', { companyId: 'ex-co-a' })).headers
  otherClient = (await t.loginAs('client', { companyId: 'ex-co-b' })).headers
  const learner = (first: string, last: string, email: string) => ({
    learnerFirstName: first,
    learnerLastName: last,
    learnerEmail: email,
  })
  await insertRegistrations(t.database.db, [
    {
      id: 'ex-1',
      dispatchId: 'ex-a',
      ...learner('Ann', 'Archer', 'ann@example.test'),
      completionStatus: 'completed',
      successStatus: 'passed',
      scoreScaled: 85.5,
      totalSecondsTracked: 3725.4,
      firstAccessDate: at('2026-02-01T08:00:00Z'),
      lastAccessDate: at('2026-03-01T10:00:00Z'),
      completedDate: at('2026-03-01T10:00:00Z'),
    },
    {
      id: 'ex-2',
      dispatchId: 'ex-a',
      ...learner('=HYPERLINK("http://evil.test")', '+1', '@evil.test'),
      completionStatus: 'incomplete',
      lastAccessDate: at('2026-03-02T10:00:00Z'),
    },
    // Same instant as ex-1: the id breaks the tie (a keyset chunk boundary there must not skip it).
    {
      id: 'ex-3',
      dispatchId: 'ex-a',
      ...learner('Cara', 'Cole', 'cara@example.test'),
      completionStatus: 'completed',
      lastAccessDate: at('2026-03-01T10:00:00Z'),
    },
    { id: 'ex-4', dispatchId: 'ex-a', ...learner('Never', 'Seen', 'never@example.test') },
    { id: 'ex-5', dispatchId: 'ex-b', ...learner('Dan', 'Other', 'dan@example.test') },
  ])
}, 120_000)
afterAll(async () => t?.close())

const exportOf = (id: string, query: string, headers = admin) =>
  t.app.inject({ method: 'GET', url: `/api/reports/dispatch/${id}/export?${query}`, headers })
const lastLog = async () => (await t.database.db.select().from(activityLog).orderBy(desc(activityLog.id)).limit(1))[0]!

async function workbookOf(body: Buffer) {
  const workbook = new ExcelJS.Workbook()
  await workbook.xlsx.load(body as unknown as ArrayBuffer)
  return workbook.worksheets[0]!
}

describe('GET /api/reports/dispatch/:id/export', () => {
  it('.xlsx: every row of the filters, cell for cell the report, real dates, logged', async () => {
    const query = 'status=completed&startDate=2026-03-01&endDate=2026-03-01'
    const res = await exportOf('ex-a', `format=xlsx&${query}`, client)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="ex-co-a - Course ex-a - completion report.xlsx"',
    )
    const sheet = await workbookOf(res.rawPayload)
    expect(sheet.getRow(1).values).toEqual([undefined, ...REPORT_EXPORT_COLUMNS])
    const report = (
      await t.app.inject({ method: 'GET', url: `/api/reports/dispatch/ex-a?pageSize=10&${query}`, headers: client })
    ).json<ReportResponse>()
    expect(sheet.rowCount - 1).toBe(report.registrations.length)
    report.registrations.forEach((r, i) => {
      const row = sheet.getRow(i + 2)
      expect([row.getCell(1).value, row.getCell(2).value, row.getCell(3).value]).toEqual([
        r.learnerFirstName,
        r.learnerLastName,
        r.learnerEmail,
      ])
      expect([row.getCell(4).value, row.getCell(5).value]).toEqual([r.completionStatus, r.successStatus])
      expect(row.getCell(6).value).toBe(r.score === null ? null : r.score * 100)
      expect(row.getCell(7).value).toBe(r.totalTimeTracked)
      expect((row.getCell(10).value as Date).toISOString()).toBe(r.lastAccessDate)
      expect(row.getCell(10).numFmt).toBe('yyyy-mm-dd hh:mm:ss')
    })
    const ann = sheet.getRow(2)
    expect(ann.getCell(8).value).toBe('1h 2m 5s')
    expect((ann.getCell(9).value as Date).toISOString()).toBe('2026-02-01T08:00:00.000Z')
    expect((ann.getCell(11).value as Date).toISOString()).toBe('2026-03-01T10:00:00.000Z')
    expect((await lastLog()).action).toBe('REPORT_EXPORTED')
    expect((await lastLog()).details).toEqual({
      report: 'completion',
      dispatchId: 'ex-a',
      format: 'xlsx',
      filters: { status: 'completed', startDate: '2026-03-01', endDate: '2026-03-01' },
      rowCount: 2,
      completed: true,
    })
  })

  it('CSV: all rows in the report order, never-accessed last, with the formula guard', async () => {
    const res = await exportOf('ex-a', 'format=csv')
    expect(res.statusCode, res.body).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/csv; charset=utf-8/)
    const records = parseCsv(res.body.replace(/^\uFEFF/, ''))
    expect(records[0]).toEqual([...REPORT_EXPORT_COLUMNS])
    expect(records.slice(1).map((r) => r[2])).toEqual([
      "'@evil.test",
      'ann@example.test',
      'cara@example.test',
      'never@example.test',
    ])
    expect(records[1]!.slice(0, 2)).toEqual(['\'=HYPERLINK("http://evil.test")', "'+1"])
    expect(records[2]!.slice(5, 11)).toEqual([
      '85.5',
      '3725',
      '1h 2m 5s',
      '2026-02-01T08:00:00.000Z',
      '2026-03-01T10:00:00.000Z',
      '2026-03-01T10:00:00.000Z',
    ])
    expect(records[4]!.slice(5)).toEqual(['N/A', '0', '0s', 'N/A', 'N/A', 'N/A'])
  })

  it('a search narrows it like the report', async () => {
    const res = await exportOf('ex-a', 'format=csv&search=cara')
    expect(
      parseCsv(res.body.replace(/^\uFEFF/, ''))
        .slice(1)
        .map((r) => r[2]),
    ).toEqual(['cara@example.test'])
  })

  it('scope: another company’s dispatch is not found for a client; bad filters are a 400 before any byte', async () => {
    expect((await exportOf('ex-a', 'format=csv', otherClient)).statusCode).toBe(404)
    expect((await exportOf('ex-b', 'format=xlsx', client)).statusCode).toBe(404)
    const before = (await lastLog()).id
    const bad = await exportOf('ex-a', 'format=csv&startDate=2026-03-05&endDate=2026-03-01')
    expect(bad.statusCode).toBe(400)
    expect(bad.json().message).toBe('End date cannot be before start date.')
    expect((await exportOf('ex-a', 'format=pdf')).statusCode).toBe(400)
    expect((await lastLog()).id).toBe(before)
  })
})

describe('export at the bench’s big dispatch size', () => {
  // The bench's big dispatch on PostgreSQL; a fifth of it on the embedded PGlite, whose inserts
  // and reads are several times slower (CI runs both): the bound is the same.
  const ROWS = process.env.TEST_DB_KIND === 'postgres' ? 100_000 : 20_000

  beforeAll(async () => {
    // In statements of 10,000 rows: each is well within the pool's statement timeout (the
    // triggers of migrations 0008 and 0015 keep their aggregates per statement).
    for (let from = 1; from <= ROWS; from += 10_000) {
      await t.database.db.execute(sql`
      insert into registration (id, dispatch_id, course_id, learner_first_name, learner_last_name, learner_email,
        completion_status, success_status, score_scaled, total_seconds_tracked, first_access_date, last_access_date)
      select 'big-' || g, 'ex-big', 'c', 'First' || g, 'Last' || g, 'learner' || g || '@example.test',
        (array['completed', 'incomplete', 'not attempted'])[1 + g % 3], 'unknown', g % 100, g,
        timestamptz '2025-01-01T00:00:00Z' + g * interval '1 minute',
        case when g % 10 = 0 then null else timestamptz '2025-01-01T00:00:00Z' + g * interval '2 minutes' end
      from generate_series(${from}::int, ${Math.min(ROWS, from + 9_999)}::int) as g`)
    }
  }, 300_000)

  /** Streams the export, sampling the live heap (collected first) every 2 MB, less the file kept by the test. */
  async function measure(format: 'csv' | 'xlsx') {
    const live = () => {
      gc()
      return process.memoryUsage().heapUsed
    }
    const baseline = live()
    let peak = baseline
    let sinceSample = Infinity
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/reports/dispatch/ex-big/export?format=${format}`,
      headers: admin,
      payloadAsStream: true,
    })
    expect(res.statusCode).toBe(200)
    const parts: Buffer[] = []
    for await (const chunk of res.stream()) {
      parts.push(chunk as Buffer)
      sinceSample += (chunk as Buffer).length
      if (sinceSample >= 2 * 1024 * 1024) {
        peak = Math.max(peak, live() - parts.reduce((n, p) => n + p.length, 0)) // the file itself is the test's
        sinceSample = 0
      }
    }
    return { growth: peak - baseline, body: Buffer.concat(parts) }
  }

  it('streams every row as .xlsx and as CSV with memory growth under 64 MB', async () => {
    const xlsx = await measure('xlsx')
    expect(xlsx.growth).toBeLessThan(64 * 1024 * 1024)
    // Read back with the library's streaming reader (the whole workbook in memory is the slow part here).
    let rows = 0
    let first: unknown[] = []
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([xlsx.body]), {})
    for await (const sheet of reader) {
      for await (const row of sheet) {
        rows += 1
        if (rows === 2) first = row.values as unknown[]
      }
    }
    expect(rows).toBe(ROWS + 1)
    expect(first[3]).toBe(`learner${ROWS - 1}@example.test`) // the newest access first
    expect((await lastLog()).details).toMatchObject({ format: 'xlsx', rowCount: ROWS, completed: true })

    const csv = await measure('csv')
    expect(csv.growth).toBeLessThan(64 * 1024 * 1024)
    expect(csv.body.toString('utf8').split('\r\n').length).toBe(ROWS + 2) // header, rows, the empty last
    expect((await lastLog()).details).toMatchObject({ format: 'csv', rowCount: ROWS, completed: true })
  }, 300_000)

  /** The node under the plan's Limit: what walks the chunk's rows. */
  async function walkOf(query: SQLWrapper): Promise<PlanNode | undefined> {
    const result = (await t.database.db.execute(sql`explain (format json) ${query}`)) as unknown as {
      rows: { 'QUERY PLAN': [{ Plan: PlanNode }] | string }[]
    }
    const nodes = planNodes(result.rows[0]!['QUERY PLAN'])
    return nodes.find((n) => n['Node Type'] === 'Limit')?.Plans?.[0]
  }
  const mid = Math.floor(ROWS / 2) + 5 // accessed (a tenth never is), in the middle of the order
  const midCursor = () => ({
    lastAccess: new Date(Date.parse('2025-01-01T00:00:00Z') + mid * 120_000),
    id: `big-${mid}`,
  })

  it('reads a chunk after a cursor over the report index, index-only, never sorting the rest of the dispatch', async () => {
    await t.database.db.execute(sql`analyze registration`)
    const query = reportChunkQuery(t.database.db, { dispatchId: 'ex-big' }, midCursor(), 250)
    expect(await walkOf(query)).toMatchObject({
      'Node Type': 'Index Only Scan',
      'Index Name': 'registration_report_idx',
    })
    // The chunk's rows, in order: the cursor's neighbours, newest access first.
    const rows = await query
    expect(rows.map((r) => r.id).slice(0, 3)).toEqual([`big-${mid - 1}`, `big-${mid - 2}`, `big-${mid - 3}`])
    expect(rows).toHaveLength(250)
    // The never-accessed rows after one of them, by id, walked the same way.
    const never = reportChunkQuery(t.database.db, { dispatchId: 'ex-big' }, { lastAccess: null, id: 'big-50' }, 250)
    expect(await walkOf(never)).toMatchObject({
      'Node Type': 'Index Only Scan',
      'Index Name': 'registration_report_idx',
    })
    const byId = (await t.database.db.execute(sql`
      select id from registration where dispatch_id = 'ex-big' and last_access_date is null and id > 'big-50'
      order by id limit 250`)) as unknown as { rows: { id: string }[] }
    const neverRows = await never
    expect(neverRows.map((r) => r.id)).toEqual(byId.rows.map((r) => r.id))
    expect(neverRows.every((r) => r.lastAccessDate === null)).toBe(true)
  })

  it('a search past the cap walks the same rows in the index order and keeps its matches; the file has every match in order', async () => {
    await t.database.db.execute(sql`analyze registration`)
    // Matches about a tenth of the rows (learner…7@, as in 7, 17, 107…): taking them directly
    // would sort all the remaining matches for each chunk.
    const filter = { dispatchId: 'ex-big', search: '7@example' }
    const query = reportChunkQuery(t.database.db, filter, midCursor(), 250, true)
    expect(await walkOf(query)).toMatchObject({ 'Node Type': 'Index Scan', 'Index Name': 'registration_report_idx' })
    const walked = await query
    expect(walked).toHaveLength(250)
    expect(walked.filter((r) => r.hit).map((r) => r.learnerEmail)).toEqual(
      walked.map((r) => r.learnerEmail).filter((email) => email.endsWith('7@example.test')),
    )

    const expected = (await t.database.db.execute(sql`
      select learner_email as email from registration where dispatch_id = 'ex-big' and learner_email like '%7@example%'
      order by last_access_date desc nulls last, id`)) as unknown as { rows: { email: string }[] }
    for (const format of ['csv', 'xlsx'] as const) {
      const res = await exportOf('ex-big', `format=${format}&search=7%40example`)
      expect(res.statusCode).toBe(200)
      const emails =
        format === 'csv'
          ? parseCsv(res.body)
              .slice(1)
              .map((row) => row[2])
          : ((await workbookOf(res.rawPayload)).getColumn(3).values.slice(2) as string[])
      expect(emails).toEqual(expected.rows.map((r) => r.email))
    }
  }, 120_000)

  it('a search within the cap takes its matches directly (no walk); the file has them in order', async () => {
    const filter = { dispatchId: 'ex-big', search: 'learner123' } // learner123, 1230 to 1239, 12300 to 12399…
    const chunk = await reportChunkQuery(t.database.db, filter, null, 250)
    expect(chunk.length).toBeGreaterThan(50) // the accessed ones: the chunk before the never-accessed
    expect(chunk.every((r) => r.hit && r.learnerEmail.includes('learner123'))).toBe(true)
    const expected = (await t.database.db.execute(sql`
      select learner_email as email from registration
      where dispatch_id = 'ex-big' and (learner_first_name || ' ' || learner_last_name || ' ' || learner_email) like '%learner123%'
      order by last_access_date desc nulls last, id`)) as unknown as { rows: { email: string }[] }
    expect(expected.rows.length).toBeGreaterThan(100)
    expect(expected.rows.length).toBeLessThan(1_000)
    const res = await exportOf('ex-big', 'format=csv&search=learner123')
    expect(
      parseCsv(res.body)
        .slice(1)
        .map((row) => row[2]),
    ).toEqual(expected.rows.map((r) => r.email))
  })
})
