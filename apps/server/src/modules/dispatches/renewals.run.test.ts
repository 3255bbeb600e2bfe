import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { and, eq } from 'drizzle-orm'
import { RENEWAL_MESSAGES as M } from '@portal/shared'
import { appParts } from '../../app'
import { company, mailOutbox } from '../../db/schema'
import { runDueJobs } from '../../test/helpers'
import { providerApp, type ProviderApp } from './dispatch-actions.test-support'
import { RENEWALS_JOB, renewalParts } from './renewals.parts'
import { RENEWAL_MAX_ATTEMPTS, utcDay } from './renewals.service'

let f: ProviderApp
let managerEmail: string
const DAY = 86_400_000
const dayAfter = (days: number) => utcDay(new Date(Date.now() + days * DAY))
/** Half past midnight UTC of a day: the sweep's first run on it. */
const on = (day: string, minutes = 30) => new Date(Date.parse(`${day}T00:00:00Z`) + minutes * 60_000)

let ids: string[]
/** A real SMTP server: what the outbox hands over, raw. */
const received: string[] = []
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  onData(stream, _session, callback) {
    const chunks: Buffer[] = []
    stream.on('data', (c: Buffer) => chunks.push(c))
    stream.on('end', () => {
      received.push(Buffer.concat(chunks).toString('utf8'))
      callback()
    })
  },
})
/** The mails delivered to an address (after the outbox job has run). */
const delivered = (to: string) => received.filter((raw) => new RegExp(`^To: .*${to}`, 'im').test(raw))

beforeAll(async () => {
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve))
  const { port } = smtp.server.address() as AddressInfo
  f = await providerApp({ smtpUrl: `smtp://127.0.0.1:${port}` })
  const manager = await f.t.createUser('sales', { name: 'Morgan Manager' })
  managerEmail = manager.email
  await f.t.database.db.update(company).set({ accountManagerId: manager.id })
  ids = f.sim.data.listDispatchIds()
})
afterAll(async () => {
  await f?.close()
  await new Promise<void>((resolve) => smtp.close(() => resolve()))
})
beforeEach(() => f.sim.clearFaults())

const renewals = () => renewalParts(f.t.app).renewals
async function schedule(payload: Record<string, unknown>): Promise<string> {
  const res = await f.t.app.inject({ method: 'POST', url: '/api/dispatches/renewals', headers: f.admin, payload })
  expect(res.statusCode, res.body).toBe(201)
  return res.json().ids[0]
}
async function renewal(id: string) {
  const res = await f.t.app.inject({ method: 'GET', url: '/api/dispatches/renewals', headers: f.admin })
  return res.json().renewals.find((r: { id: string }) => r.id === id)
}
const mails = (renewalId: string) =>
  f.t.database.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.kind, 'renewal')))
    .then((rows) => rows.filter((m) => m.idempotencyKey.startsWith(`renewal:${renewalId}:`)))

describe('carrying out renewals', () => {
  it('runs on its day, not before, through the update path, and mails the account manager', async () => {
    const id = ids[1]!
    const day = dayAfter(3)
    const renewalId = await schedule({
      dispatchIds: [id],
      runOn: day,
      registrationCap: 777,
      expirationDate: dayAfter(400),
    })

    expect(await renewals().runDue(on(dayAfter(2)))).toMatchObject({ done: 0 })
    expect(f.sim.data.getDispatch(id)!.registrationCap).not.toBe(777)
    expect((await renewal(renewalId)).status).toBe('scheduled')

    expect(await renewals().runDue(on(day))).toMatchObject({ done: 1, failed: 0 })
    const upstream = f.sim.data.getDispatch(id)!
    expect(upstream.registrationCap).toBe(777)
    expect(upstream.expirationDate!.slice(0, 10)).toBe(dayAfter(400))
    expect((await f.mirrorRow(id))!.registrationCap).toBe(777)
    expect((await renewal(renewalId)).status).toBe('done')

    const [logged] = (await f.activity('DISPATCH_UPDATED')).filter(
      (r) => (r.details as { dispatchId?: string }).dispatchId === id,
    )
    expect(logged!.actorName).toMatch(new RegExp(`^Renewal ${renewalId.slice(0, 8)} scheduled by `))
    expect(logged!.details).toMatchObject({ changes: { registrationCap: { after: 777 } } })
    // The dispatch's licence history names the renewal run that made the change.
    const history = await f.t.app.inject({ method: 'GET', url: `/api/dispatches/${id}/history`, headers: f.admin })
    expect(history.statusCode, history.body).toBe(200)
    const capEntry = history.json().entries.find((e: { kind: string }) => e.kind === 'cap')
    expect(capEntry).toMatchObject({
      newValue: '777',
      source: 'portal',
      actor: { kind: 'system', id: renewalId, label: expect.stringMatching(/^Renewal .* scheduled by /) },
    })

    const [mail] = await mails(renewalId)
    expect(mail).toMatchObject({ toAddress: managerEmail })
    expect(mail!.subject).toContain('Renewal carried out')
    expect(mail!.textBody).toContain('cap 777')
    // The outbox job hands it to the SMTP server.
    await runDueJobs(f.t.app)
    expect(delivered(managerEmail).filter((raw) => /^Subject: .*Renewal carried out/m.test(raw))).toHaveLength(1)
  })

  it('is carried out once when two workers run the sweep at the same time', async () => {
    const id = ids[2]!
    f.sim.addRegistration(id)
    await appParts(f.t.app).sync!.run({ trigger: 'manual' })
    const day = dayAfter(4)
    const renewalId = await schedule({ dispatchIds: [id], runOn: day, resetCount: true })
    const resetsBefore = (await f.activity('DISPATCH_COUNT_RESET')).length

    const [a, b] = await Promise.all([renewals().runDue(on(day)), renewals().runDue(on(day))])
    expect(a.done + b.done).toBe(1)
    expect((await f.activity('DISPATCH_COUNT_RESET')).length).toBe(resetsBefore + 1)
    expect(f.sim.data.getDispatch(id)!.registrationCount).toBe(0)
    expect((await renewal(renewalId)).status).toBe('done')
    expect(await mails(renewalId)).toHaveLength(1)
  })

  it('retries a failed SCORM Cloud write with growing waits, then reports it failed with the reason', async () => {
    const id = ids[3]!
    const day = dayAfter(5)
    const capBefore = f.sim.data.getDispatch(id)!.registrationCap
    const renewalId = await schedule({ dispatchIds: [id], runOn: day, registrationCap: 4321 })
    f.sim.setFaults({ errorRate: 1, errorStatuses: [500], onlyPaths: ['/dispatch/dispatches/'] })

    expect(await renewals().runDue(on(day))).toMatchObject({ retrying: 1, failed: 0 })
    const waiting = await renewal(renewalId)
    expect(waiting).toMatchObject({ status: 'scheduled', attempts: 1 })
    expect(waiting.lastError).toBeTruthy()
    // Not again before its wait is over.
    expect(await renewals().runDue(on(day, 31))).toMatchObject({ retrying: 0, failed: 0 })
    expect(await renewals().runDue(on(day, 41))).toMatchObject({ retrying: 1 })
    expect((await renewal(renewalId)).attempts).toBe(2)
    // The second wait is twice the first.
    expect(await renewals().runDue(on(day, 55))).toMatchObject({ retrying: 0, failed: 0 })
    expect(await renewals().runDue(on(day, 62))).toMatchObject({ retrying: 0, failed: 1 })

    const failed = await renewal(renewalId)
    expect(failed).toMatchObject({ status: 'failed', attempts: RENEWAL_MAX_ATTEMPTS })
    expect(failed.lastError).toMatch(/simulated|500/i)
    expect(f.sim.data.getDispatch(id)!.registrationCap).toBe(capBefore)
    const [mail] = await mails(renewalId)
    expect(mail!.toAddress).toBe(managerEmail)
    expect(mail!.subject).toContain('Renewal failed')
    expect(mail!.textBody).toContain(`Reason: ${failed.lastError}`)
    await runDueJobs(f.t.app)
    expect(delivered(managerEmail).filter((raw) => /^Subject: .*Renewal failed/m.test(raw))).toHaveLength(1)
  })

  it('fails a renewal of a dispatch removed upstream at once, with that reason', async () => {
    const id = ids[4]!
    const day = dayAfter(6)
    const renewalId = await schedule({ dispatchIds: [id], runOn: day, registrationCap: 50, confirmBelowCount: true })
    f.sim.removeDispatch(id)
    expect(await renewals().runDue(on(day))).toMatchObject({ failed: 1 })
    expect(await renewal(renewalId)).toMatchObject({ status: 'failed', attempts: 1, lastError: M.removedUpstream })
    expect((await mails(renewalId))[0]!.textBody).toContain(M.removedUpstream)
  })

  it('rolls a dispatch over at its expiry: the expiry moves on by the months and the counter resets, once', async () => {
    const id = ids[5]!
    const expiry = dayAfter(10)
    const set = await f.t.app.inject({
      method: 'PUT',
      url: `/api/dispatches/${id}`,
      headers: f.admin,
      payload: { expirationDate: expiry },
    })
    expect(set.statusCode, set.body).toBe(200)
    f.sim.addRegistration(id)
    await appParts(f.t.app).sync!.run({ trigger: 'manual' })
    expect(f.sim.data.getDispatch(id)!.registrationCount).toBeGreaterThan(0)

    const setup = await schedule({ dispatchIds: [id], runOn: dayAfter(1), rolloverMonths: 12 })
    expect(await renewals().runDue(on(dayAfter(1)))).toMatchObject({ done: 1 })
    expect((await renewal(setup)).status).toBe('done')
    // Before the expiry nothing rolls.
    expect(await renewals().runDue(on(dayAfter(9)))).toMatchObject({ done: 0 })

    const [a, b] = await Promise.all([renewals().runDue(on(expiry)), renewals().runDue(on(expiry))])
    expect(a.done + b.done).toBe(1)
    const next = new Date(`${expiry}T00:00:00Z`)
    next.setUTCMonth(next.getUTCMonth() + 12)
    expect(f.sim.data.getDispatch(id)!.expirationDate!.slice(0, 10)).toBe(utcDay(next))
    expect(f.sim.data.getDispatch(id)!.registrationCount).toBe(0)
    expect(await renewals().runDue(on(expiry, 90))).toMatchObject({ done: 0 })
    const listed = await f.t.app.inject({ method: 'GET', url: '/api/dispatches/renewals', headers: f.admin })
    const rolled = listed
      .json()
      .renewals.filter((r: { dispatchId: string; source: string }) => r.dispatchId === id && r.source === 'rollover')
    expect(rolled).toHaveLength(1)
    expect(rolled[0]).toMatchObject({ status: 'done', runOn: expiry, resetCount: true })
  })

  it('is carried out by the job engine on the day', async () => {
    const id = ids[6]!
    const renewalId = await schedule({ dispatchIds: [id], runOn: utcDay(new Date()), registrationCap: 0 })
    await appParts(f.t.app).jobs.send(RENEWALS_JOB, {})
    await runDueJobs(f.t.app)
    expect((await renewal(renewalId)).status).toBe('done')
    expect(f.sim.data.getDispatch(id)!.registrationCap ?? 0).toBe(0)
  })
})
