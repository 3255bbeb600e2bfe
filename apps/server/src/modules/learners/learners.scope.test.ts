import { beforeAll, describe, expect, it } from 'vitest'
import ExcelJS from 'exceljs'
import { LEARNER_EXPORT_COLUMNS, type LearnerRegistrationsResponse } from '@portal/shared'
import { parseCsv } from '../activity-logs/logs.test-support'
import { insertDispatches, insertRegistrations } from '../dispatches/dispatches.test-data'
import { emails, listLearners, person, useLearnersApp } from './learners.test-support'

/**
 * A client's export and learner registrations are its own company's, whatever
 * companyId it sends (learners.service.ts companyOf), as the list is.
 */
const { app } = useLearnersApp()
let client: { 'x-auth-token': string }

const OWN = ['amy@example.test', 'both@example.test']
const OTHERS = ['cat@example.test', 'dora@example.test']

beforeAll(async () => {
  await insertDispatches(app.t.database.db, [
    { id: 'lns-d1', destinationId: 'lns-a', courseId: 'lns-c1', courseTitle: 'Safety' },
    { id: 'lns-d2', destinationId: 'lns-b', courseId: 'lns-c1', courseTitle: 'Safety' },
  ])
  client = (await app.t.loginAs('client', { companyId: 'lns-a' })).headers
  await insertRegistrations(app.t.database.db, [
    { id: 'lns-r1', dispatchId: 'lns-d1', ...person('Amy', 'Own', 'amy@example.test'), completionStatus: 'completed' },
    {
      id: 'lns-r2',
      dispatchId: 'lns-d1',
      ...person('Bo', 'Both', 'both@example.test'),
      completionStatus: 'incomplete',
    },
    // The other company: a learner of its own and one with an e-mail both companies have.
    {
      id: 'lns-r3',
      dispatchId: 'lns-d2',
      ...person('Cat', 'Other', 'cat@example.test'),
      completionStatus: 'completed',
    },
    {
      id: 'lns-r4',
      dispatchId: 'lns-d2',
      ...person('Dora', 'Other', 'dora@example.test'),
      completionStatus: 'completed',
    },
    { id: 'lns-r5', dispatchId: 'lns-d2', ...person('Bo', 'Both', 'both@example.test'), completionStatus: 'completed' },
  ])
}, 120_000)

const exportAs = async (headers: Record<string, string>, query: string) => {
  const res = await app.t.app.inject({ method: 'GET', url: `/api/learners/export?${query}`, headers })
  expect(res.statusCode, res.body).toBe(200)
  return res
}

/** The e-mails of a CSV export's rows (the third column), lowercased. */
const csvEmails = (body: string) =>
  parseCsv(body.replace(/^\uFEFF/, ''))
    .slice(1)
    .map((r) => r[2]!.toLowerCase())

describe('GET /api/learners/export: a client gets its own company only', () => {
  it('the data is there: staff naming the other company export its learners', async () => {
    const res = await exportAs(app.admin, 'format=csv&companyId=lns-b&sort=email')
    expect(csvEmails(res.body)).toEqual(['both@example.test', ...OTHERS])
  })

  it('CSV: companyId of another company gives the client’s own learners, the same rows as its list', async () => {
    const res = await exportAs(client, 'format=csv&companyId=lns-b&sort=email')
    const records = parseCsv(res.body.replace(/^\uFEFF/, ''))
    expect(records[0]).toEqual([...LEARNER_EXPORT_COLUMNS])
    expect(csvEmails(res.body)).toEqual(OWN)
    expect(emails(await listLearners(app.t, 'companyId=lns-b&sort=email', client))).toEqual(OWN)
    for (const email of OTHERS) expect(res.body).not.toContain(email)
    expect(res.body).not.toContain('Other')
    expect(res.headers['content-disposition']).toBe('attachment; filename="lns-a - learners.csv"')
  })

  it('.xlsx: the same', async () => {
    const res = await exportAs(client, 'format=xlsx&companyId=lns-b&sort=email')
    const workbook = new ExcelJS.Workbook()
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer)
    const sheet = workbook.worksheets[0]!
    const rows: [string, string][] = []
    sheet.eachRow((row, n) => {
      if (n > 1) rows.push([String(row.getCell(3).value).toLowerCase(), String(row.getCell(2).value)])
    })
    expect(rows).toEqual([
      ['amy@example.test', 'Own'],
      ['both@example.test', 'Both'],
    ])
    expect(res.headers['content-disposition']).toBe('attachment; filename="lns-a - learners.xlsx"')
  })
})

describe('GET /api/learners/:email/registrations: a client gets its own company only', () => {
  const regs = async (email: string, query: string, headers: Record<string, string>) => {
    const res = await app.t.app.inject({
      method: 'GET',
      url: `/api/learners/${encodeURIComponent(email)}/registrations${query}`,
      headers,
    })
    expect(res.statusCode, res.body).toBe(200)
    return res.json<LearnerRegistrationsResponse>()
  }

  it('a learner only the other company has: nothing (staff naming that company see the row)', async () => {
    expect((await regs('cat@example.test', '?companyId=lns-b', app.admin)).registrations.map((r) => r.id)).toEqual([
      'lns-r3',
    ])
    expect(await regs('cat@example.test', '?companyId=lns-b', client)).toEqual({ learner: null, registrations: [] })
  })

  it('an e-mail both companies have: the client’s own company’s registrations only', async () => {
    const body = await regs('both@example.test', '?companyId=lns-b', client)
    expect(body.registrations.map((r) => [r.id, r.dispatchId])).toEqual([['lns-r2', 'lns-d1']])
  })
})
