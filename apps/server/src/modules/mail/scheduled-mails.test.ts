import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import { buildTestApp, type TestContext, type TestUser } from '../../test/helpers'
import { userPreference } from '../../db/schema'
import { insertDispatches } from '../dispatches/dispatches.test-data'
import { rows } from '../alerts/alerts.test-support'

/** Issue #17: digests and reports at the user's hour in the user's zone, once per period. */
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

const mails = () =>
  rows(
    t.database.db,
    sql`select m.kind, m.to_address, m.subject, m.idempotency_key, a.filename, convert_from(a.content, 'UTF8') as csv
      from mail_outbox m left join mail_attachment a on a.mail_id = m.id order by m.id`,
  )

describe('scheduled mails', () => {
  it("waits for the chosen hour in the user's time zone, then queues each mail once per period", async () => {
    // Monday 2030-06-03 04:59 UTC = 06:59 in Paris: the client's weekly report is not due yet.
    expect(await t.app.queueScheduledMails(new Date('2030-06-03T04:59:00Z'))).toBe(2) // sales: month + digest
    expect((await mails()).map((m) => m.kind).sort()).toEqual(['digest', 'report'])
    // Two processes at 07:00 Paris: one mail.
    const at = new Date('2030-06-03T05:00:00Z')
    const [a, b] = await Promise.all([t.app.queueScheduledMails(at), t.app.queueScheduledMails(at)])
    expect(a + b).toBe(1)
    expect(await t.app.queueScheduledMails(new Date('2030-06-05T12:00:00Z'))).toBe(0)
    // Next week and next month: again.
    expect(await t.app.queueScheduledMails(new Date('2030-06-10T06:00:00Z'))).toBe(2) // client report + sales digest
    // 2030-07-01 is a Monday: the sales user's July report and week-27 digest (the client's is at 07:00 Paris).
    expect(await t.app.queueScheduledMails(new Date('2030-07-01T00:00:00Z'))).toBe(2)
  })

  it('attaches the CSV: the client its completion summary, the account manager its companies only', async () => {
    const all = await mails()
    const clientReport = all.find((m) => m.to_address === 'sm-client@example.test')!
    expect(clientReport.idempotency_key).toBe(`report:${client.id}:2030-W23`)
    expect(clientReport.filename).toBe('completion-summary-2030-W23.csv')
    expect(String(clientReport.csv)).toContain(
      'Course,Status,Registrations,Cap,Learners,Completed,Incomplete,Not Started',
    )
    // The formula guard of the shared CSV rules.
    expect(String(clientReport.csv)).toContain(`"'=HYPERLINK(""x"")"`)
    const salesReport = all.find((m) => m.to_address === 'sm-sales@example.test' && m.kind === 'report')!
    expect(salesReport.filename).toBe('license-usage-2030-06.csv')
    expect(String(salesReport.csv)).toContain('co-sm')
    expect(String(salesReport.csv)).not.toContain('co-other')
    expect(String(salesReport.subject)).toBe('[Dispatch Portal] License usage summary (2030-06)')
  })
})
