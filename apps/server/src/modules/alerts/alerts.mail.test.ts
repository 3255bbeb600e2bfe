import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { eq, sql } from 'drizzle-orm'
import { buildTestApp, type TestContext, type TestUser } from '../../test/helpers'
import { appUser, company, mailOutbox } from '../../db/schema'
import { insertDispatches } from '../dispatches/dispatches.test-data'
import { createSmtpTransport } from '../mail/mail-transport'
import { createOutboxWorker } from '../mail/outbox.worker'
import { createOutboxRepository, UNCERTAIN_MESSAGE } from '../mail/outbox.repository'
import { mailText, rows, setDispatch, startSmtpReceiver, type SmtpReceiver } from './alerts.test-support'
import { appParts } from '../../app'

/**
 * With a real SMTP receiver (smtp-server): a crossing mails exactly the right people
 * once; a refusal is retried and delivered once; two workers never send a mail twice; a
 * suspended user gets nothing; preferences are honoured.
 */
let t: TestContext
let smtp: SmtpReceiver
const FROM = 'Dispatch Portal <portal@example.test>'
const silent = { info() {}, warn() {}, error() {} }
let users: Record<string, TestUser>

const worker = (now = () => new Date()) =>
  createOutboxWorker({
    outbox: createOutboxRepository(t.database.db),
    transport: createSmtpTransport(smtp.url, FROM),
    log: silent,
    now,
    domain: 'example.test',
  })

/** One alert mail queued straight in the outbox (subject S, body T). */
const queueMail = (idempotencyKey: string, to: string, more: { html?: string } = {}) =>
  createOutboxRepository(t.database.db).enqueue([
    { idempotencyKey, kind: 'alert', userId: null, to, subject: 'S', text: 'T', html: 'T', ...more },
  ])

async function setPreferences(user: TestUser, body: object) {
  const { accessToken } = await t.login(user.email)
  const res = await t.app.inject({
    method: 'PUT',
    url: '/api/profile/preferences',
    headers: { 'x-auth-token': accessToken },
    payload: { alertMails: true, weeklyDigest: false, timeZone: 'UTC', reportFrequency: 'off', reportHour: 8, ...body },
  })
  expect(res.statusCode, res.body).toBe(200)
}

const recipientsOf = (n = 0) =>
  smtp.received
    .slice(n)
    .flatMap((m) => m.to)
    .sort()

beforeAll(async () => {
  smtp = await startSmtpReceiver()
  t = await buildTestApp({ alerts: { timers: false } })
  await t.createCompany('co-a', 'Alpha Ltd')
  await t.createCompany('co-b', 'Beta Ltd')
  users = {
    admin: await t.createUser('admin', { email: 'admin@example.test' }),
    suspendedAdmin: await t.createUser('admin', { email: 'suspended-admin@example.test' }),
    manager: await t.createUser('sales', { email: 'manager@example.test' }),
    otherSales: await t.createUser('sales', { email: 'other-sales@example.test' }),
    internal: await t.createUser('internal', { email: 'internal@example.test' }),
    clientIn: await t.createUser('client', { email: 'client-in@example.test', companyId: 'co-a' }),
    clientOut: await t.createUser('client', { email: 'client-out@example.test', companyId: 'co-a' }),
    clientB: await t.createUser('client', { email: 'client-b@example.test', companyId: 'co-b' }),
  }
  await t.database.db.update(company).set({ accountManagerId: users.manager!.id }).where(eq(company.id, 'co-a'))
  await setPreferences(users.clientIn!, { alertMails: true })
  await setPreferences(users.clientB!, { alertMails: true })
  await t.database.db.update(appUser).set({ status: 'suspended' }).where(eq(appUser.id, users.suspendedAdmin!.id))
  await insertDispatches(t.database.db, [
    { id: 'd-a', destinationId: 'co-a', courseTitle: 'Fire <Safety> & Co', registrationCount: 7, registrationCap: 10 },
    { id: 'd-b', destinationId: 'co-b', registrationCount: 1, registrationCap: 10 },
  ])
})
afterAll(async () => {
  await t?.close()
  await smtp?.close()
})
beforeEach(async () => {
  await t.database.db.execute(sql`delete from mail_outbox`)
  smtp.received.length = 0
  smtp.refuseNext(0)
})

describe('alert mails over real SMTP', () => {
  it('a crossing sends exactly one mail to the account manager, the active admins and opted-in clients', async () => {
    expect(await appParts(t.app).alerts.evaluate()).toEqual([])
    await setDispatch(t.database.db, 'd-a', { registrationCount: 8 })
    const raised = await appParts(t.app).alerts.evaluate()
    expect(raised.map((a) => [a.kind, a.level, a.dispatchId])).toEqual([['usage', 80, 'd-a']])
    // Evaluated again (another sync, another process): nothing new.
    expect(await appParts(t.app).alerts.evaluate()).toEqual([])

    expect(await worker().runOnce()).toBe(3)
    expect(await worker().runOnce()).toBe(0)
    expect(recipientsOf()).toEqual(['admin@example.test', 'client-in@example.test', 'manager@example.test'])
    const text = mailText(smtp.received[0]!.raw)
    expect(text).toContain('Subject: [Dispatch Portal] 80% of licenses used (threshold 80%)')
    expect(text).toContain('http://portal.example.test/dispatches/d-a')
    // Both parts, and the HTML escapes the course title.
    expect(text).toContain('text/plain')
    expect(text).toContain('Fire &lt;Safety&gt; &amp; Co')
    expect(text).not.toMatch(/postback-secret|x-auth-token|password/i)
  })

  it('re-arms only after usage falls back below: the next crossing mails again, at its most severe level', async () => {
    await setDispatch(t.database.db, 'd-a', { registrationCount: 2 })
    expect(await appParts(t.app).alerts.evaluate()).toEqual([])
    await setDispatch(t.database.db, 'd-a', { registrationCount: 10 })
    const raised = await appParts(t.app).alerts.evaluate()
    expect(raised.map((a) => [a.kind, a.level])).toEqual([['usage', 100]])
    await worker().runOnce()
    expect(smtp.received).toHaveLength(3)
    expect(mailText(smtp.received[0]!.raw)).toContain('License cap reached')
  })

  it('honours preferences: an admin who turned alert mails off gets none; a suspended user never gets one', async () => {
    await setPreferences(users.admin!, { alertMails: false })
    await setDispatch(t.database.db, 'd-b', { registrationCount: 9 })
    expect((await appParts(t.app).alerts.evaluate()).map((a) => a.dispatchId)).toEqual(['d-b'])
    await worker().runOnce()
    expect(recipientsOf()).toEqual(['client-b@example.test'])
    await setPreferences(users.admin!, { alertMails: true })

    // Queued before the suspension, not sent after it.
    await setDispatch(t.database.db, 'd-b', { registrationCount: 0 })
    await appParts(t.app).alerts.evaluate()
    await setDispatch(t.database.db, 'd-b', { registrationCount: 10 })
    await appParts(t.app).alerts.evaluate()
    await t.database.db.update(appUser).set({ status: 'suspended' }).where(eq(appUser.id, users.clientB!.id))
    await worker().runOnce()
    expect(recipientsOf(1)).toEqual(['admin@example.test'])
    const [failed] = await rows(
      t.database.db,
      sql`select status, last_error from mail_outbox where to_address = 'client-b@example.test' and status <> 'sent'`,
    )
    expect(failed).toMatchObject({ status: 'failed', last_error: 'Not sent: the recipient is suspended.' })
    await t.database.db.update(appUser).set({ status: 'active' }).where(eq(appUser.id, users.clientB!.id))
  })

  it('a mail queued within the millisecond the worker runs is due (PostgreSQL keeps microseconds)', async () => {
    await queueMail('same-ms-1', 'same-ms@example.test')
    await t.database.db.execute(sql`update mail_outbox set next_attempt_at = '2030-01-01T00:00:00.000500Z'`)
    expect(await worker(() => new Date('2030-01-01T00:00:00.000Z')).runOnce()).toBe(1)
    expect(recipientsOf()).toEqual(['same-ms@example.test'])
  })

  it('SMTP refusing (451) then accepting delivers the mail once', async () => {
    let clock = new Date('2030-01-01T00:00:00Z')
    await queueMail('retry-1', 'someone@example.test', { html: '<p>T</p>' })
    await t.database.db.update(mailOutbox).set({ nextAttemptAt: clock })
    smtp.refuseNext(1)
    const w = worker(() => clock)
    expect(await w.runOnce()).toBe(0)
    const [pending] = await rows(t.database.db, sql`select status, attempts, last_error from mail_outbox`)
    expect(pending).toMatchObject({ status: 'pending', attempts: 1 })
    expect(String(pending!.last_error)).toMatch(/^SMTP 451/)
    // Not yet due: nothing happens.
    expect(await w.runOnce()).toBe(0)
    clock = new Date(clock.getTime() + 60_000)
    expect(await w.runOnce()).toBe(1)
    expect(await w.runOnce()).toBe(0)
    expect(smtp.received).toHaveLength(1)
    const [sent] = await rows(t.database.db, sql`select status, attempts from mail_outbox`)
    expect(sent).toMatchObject({ status: 'sent', attempts: 2 })
  })

  it('a permanent refusal (550) is not retried', async () => {
    await queueMail('perm-1', 'x@example.test')
    smtp.refuseNext(1, 550)
    expect(await worker().runOnce()).toBe(0)
    const [row] = await rows(t.database.db, sql`select status, attempts from mail_outbox`)
    expect(row).toMatchObject({ status: 'failed', attempts: 1 })
  })

  it('two workers draining one outbox together never send a mail twice', async () => {
    await createOutboxRepository(t.database.db).enqueue(
      Array.from({ length: 30 }, (_, i) => ({
        idempotencyKey: `pair-${i}`,
        kind: 'alert' as const,
        userId: null,
        to: `r${i}@example.test`,
        subject: `Mail ${i}`,
        text: 'T',
        html: 'T',
      })),
    )
    const [a, b] = await Promise.all([worker().runOnce(), worker().runOnce()])
    expect(a + b).toBe(30)
    expect(smtp.received).toHaveLength(30)
    expect(new Set(recipientsOf()).size).toBe(30)
    // The same idempotency key queued again is not a second mail.
    expect(
      await createOutboxRepository(t.database.db).enqueue([
        {
          idempotencyKey: 'pair-0',
          kind: 'alert',
          userId: null,
          to: 'r0@example.test',
          subject: 'x',
          text: 'x',
          html: 'x',
        },
      ]),
    ).toBe(0)
  })

  it('a mail left "sending" by a process that died mid-send becomes uncertain and is never resent', async () => {
    await queueMail('crash-1', 'c@example.test')
    // The dead process's claim and handover start: committed, lease running out, never marked.
    // The lease runs out on the fake clock, not in a real sleep.
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      const claimed = await createOutboxRepository(t.database.db).claim({ now: new Date(), limit: 10, leaseMs: 1 })
      expect(claimed).toHaveLength(1)
      expect(await createOutboxRepository(t.database.db).startHandover(claimed[0]!, new Date(), 1)).toBe(1)
      vi.advanceTimersByTime(5)
      expect(await worker().runOnce()).toBe(0)
    } finally {
      vi.useRealTimers()
    }
    expect(smtp.received).toHaveLength(0)
    const [row] = await rows(t.database.db, sql`select status, last_error from mail_outbox`)
    expect(row).toEqual({ status: 'uncertain', last_error: UNCERTAIN_MESSAGE })
  })
})
