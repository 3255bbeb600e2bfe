import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { appParts } from '../../app'
import { company } from '../../db/schema'
import { buildTestApp, type TestContext, type TestUser } from '../../test/helpers'
import { startSmtpReceiver, mailText, type SmtpReceiver } from '../alerts/alerts.test-support'
import { insertDispatches, insertRegistrations } from '../dispatches/dispatches.test-data'
import { createSmtpTransport } from '../mail/mail-transport'
import { STATEMENT_MAILS_JOB } from './statement-mails'
import { previousMonth } from './statements.service'

/**
 * The monthly statement mail through the job engine and the outbox to a real SMTP receiver:
 * the account manager and the client user who opted in get last month's statement, once.
 */
let t: TestContext
let smtp: SmtpReceiver
let users: Record<string, TestUser>
const month = previousMonth(new Date())
const inLastMonth = (day: number) => new Date(`${month}-${String(day).padStart(2, '0')}T10:00:00.000Z`)

async function optIn(user: TestUser, statementMails: boolean) {
  const { accessToken } = await t.login(user.email)
  const res = await t.app.inject({
    method: 'PUT',
    url: '/api/profile/preferences',
    headers: { 'x-auth-token': accessToken },
    payload: {
      alertMails: false,
      weeklyDigest: false,
      timeZone: 'UTC',
      reportFrequency: 'off',
      reportHour: 8,
      statementMails,
    },
  })
  expect(res.statusCode, res.body).toBe(200)
  expect(res.json()).toMatchObject({ statementMails })
}

beforeAll(async () => {
  smtp = await startSmtpReceiver()
  t = await buildTestApp({
    alerts: { mailTransport: createSmtpTransport(smtp.url, 'Dispatch Portal <portal@example.test>') },
  })
  await t.createCompany('st-a', 'Alpha Statements')
  await t.createCompany('st-b', 'Beta Statements')
  users = {
    manager: await t.createUser('sales', { email: 'st-manager@example.test' }),
    clientIn: await t.createUser('client', { email: 'st-client-in@example.test', companyId: 'st-a' }),
    clientOut: await t.createUser('client', { email: 'st-client-out@example.test', companyId: 'st-a' }),
    clientB: await t.createUser('client', { email: 'st-client-b@example.test', companyId: 'st-b' }),
  }
  await t.database.db.update(company).set({ accountManagerId: users.manager!.id }).where(eq(company.id, 'st-a'))
  await optIn(users.clientIn!, true)
  await optIn(users.clientOut!, false)
  await insertDispatches(t.database.db, [
    { id: 'st-d1', destinationId: 'st-a', courseTitle: 'Safety', registrationCount: 3, registrationCap: 10 },
    { id: 'st-d2', destinationId: 'st-b', courseTitle: 'Hygiene', registrationCount: 1, registrationCap: 5 },
  ])
  await insertRegistrations(t.database.db, [
    {
      id: 'st-r1',
      dispatchId: 'st-d1',
      learnerEmail: 'a@x.test',
      createdDate: inLastMonth(3),
      firstAccessDate: inLastMonth(3),
    },
    {
      id: 'st-r2',
      dispatchId: 'st-d1',
      learnerEmail: 'b@x.test',
      createdDate: inLastMonth(4),
      completedDate: inLastMonth(9),
    },
    { id: 'st-r3', dispatchId: 'st-d1', learnerEmail: 'c@x.test', createdDate: inLastMonth(5) },
    { id: 'st-r4', dispatchId: 'st-d2', learnerEmail: 'd@x.test', createdDate: inLastMonth(6) },
  ])
})
afterAll(async () => {
  await t?.close()
  await smtp?.close()
})

describe('monthly usage statement mails', () => {
  it("mails last month's statement to the account manager and the opted-in client, once", async () => {
    const jobs = appParts(t.app).jobs
    await jobs.send(STATEMENT_MAILS_JOB, {})
    // The statement job queues the mails; the outbox job it sends delivers them.
    await jobs.runDue()
    await jobs.runDue()
    expect(smtp.received.flatMap((m) => m.to).sort()).toEqual(['st-client-in@example.test', 'st-manager@example.test'])
    const text = mailText(smtp.received[0]!.raw)
    expect(text).toContain(`Subject: [Dispatch Portal] Usage statement ${month}`)
    expect(text).toContain(
      'Alpha Statements: 3 registrations added, 1 learners launched, 1 completions, 7 licences remaining.',
    )
    expect(text).toContain(`Alpha Statements - usage statement ${month}.xlsx`)

    // The same month again (a retry, another server): nothing more is sent.
    expect(await appParts(t.app).queueStatementMails()).toBe(0)
    await jobs.runDue()
    expect(smtp.received).toHaveLength(2)
  })
})
