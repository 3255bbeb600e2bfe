import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import ExcelJS from 'exceljs'
import { buildTestApp, type TestContext, type TestUser } from '../../test/helpers'
import { userPreference } from '../../db/schema'
import { insertDispatches } from '../dispatches/dispatches.test-data'
import { queryRows as rows } from '../../db/statement'
import { appParts } from '../../app'

/** Digests and reports at the user's hour in the user's zone, once per period. */
let t: TestContext
let client: TestUser
let sales: TestUser

beforeAll(async () => {
  t = await buildTestApp({ alerts: { timers: false } })
  await insertDispatches(t.database.db, [
    { id: 'sm-1', destinationId: 'co-sm', courseTitle: '=HYPERLINK("x")', registrationCount: 3, registrationCap: 10 },
    { id: 'sm-2', destinationId: 'co-other', registrationCount: 1, registrationCap: 0 },
  ])
  client = await t.createUser('client', { companyId: 'co-sm', email: 'sm-client@example.test' })
  sales = await t.createUser('sales', { email: 'sm-sales@example.test' })
  await t.database.db.execute(sql`update company set account_manager_id = ${sales.id}::uuid where id = 'co-sm'`)
  await t.database.db.insert(userPreference).values([
    // Monday 07:00 in Paris is 05:00 UTC in summer (CEST, UTC+2).
    { userId: client.id, timeZone: 'Europe/Paris', reportFrequency: 'weekly', reportHour: 7 },
    { userId: sales.id, timeZone: 'UTC', reportFrequency: 'monthly', reportHour: 0, weeklyDigest: true },
  ])
})
afterAll(async () => t?.close())

/** bytea as the driver gives it (a Buffer; PGlite: a Uint8Array). */
const bytes = (value: unknown) => Buffer.from(value as Uint8Array)

const mails = () =>
  rows(
    t.database.db,
    sql`select m.kind, m.to_address, m.subject, m.idempotency_key, a.filename, a.content
      from mail_outbox m left join mail_attachment a on a.mail_id = m.id order by m.id`,
  )

describe('scheduled mails', () => {
  it("waits for the chosen hour in the user's time zone, then queues each mail once per period", async () => {
    // Monday 2030-06-03 04:59 UTC = 06:59 in Paris: the client's weekly report is not due yet.
    expect(await appParts(t.app).queueScheduledMails(new Date('2030-06-03T04:59:00Z'))).toBe(2) // sales: month + digest
    expect((await mails()).map((m) => m.kind).sort()).toEqual(['digest', 'report'])
    // Two processes at 07:00 Paris: one mail.
    const at = new Date('2030-06-03T05:00:00Z')
    const [a, b] = await Promise.all([appParts(t.app).queueScheduledMails(at), appParts(t.app).queueScheduledMails(at)])
    expect(a + b).toBe(1)
    expect(await appParts(t.app).queueScheduledMails(new Date('2030-06-05T12:00:00Z'))).toBe(0)
    // Next week and next month: again.
    expect(await appParts(t.app).queueScheduledMails(new Date('2030-06-10T06:00:00Z'))).toBe(2) // client report + sales digest
    // 2030-07-01 is a Monday: the sales user's July report and week-27 digest (the client's is at 07:00 Paris).
    expect(await appParts(t.app).queueScheduledMails(new Date('2030-07-01T00:00:00Z'))).toBe(2)
  })

  it('attaches the client its completion summary as .xlsx, the account manager its companies only as CSV', async () => {
    const all = await mails()
    const clientReport = all.find((m) => m.to_address === 'sm-client@example.test')!
    expect(clientReport.idempotency_key).toBe(`report:${client.id}:2030-W23`)
    // The client's completion summary is an .xlsx workbook of the same table.
    expect(clientReport.filename).toBe('completion-summary-2030-W23.xlsx')
    const workbook = new ExcelJS.Workbook()
    await workbook.xlsx.load(bytes(clientReport.content) as unknown as ArrayBuffer)
    const sheet = workbook.worksheets[0]!
    expect(sheet.getRow(1).values).toEqual([
      undefined,
      ...['Course', 'Status', 'Registrations', 'Cap', 'Learners', 'Completed', 'Incomplete', 'Not Started'],
    ])
    // A title that looks like a formula stays text (an .xlsx cell is typed), numbers stay numbers.
    expect(sheet.getCell('A2').value).toBe('=HYPERLINK("x")')
    expect(sheet.getCell('C2').value).toBe(3)
    const salesReport = all.find((m) => m.to_address === 'sm-sales@example.test' && m.kind === 'report')!
    expect(salesReport.filename).toBe('license-usage-2030-06.csv')
    const csv = bytes(salesReport.content).toString('utf8')
    expect(csv).toContain('co-sm')
    expect(csv).not.toContain('co-other')
    expect(String(salesReport.subject)).toBe('[Dispatch Portal] License usage summary (2030-06)')
  })
})
