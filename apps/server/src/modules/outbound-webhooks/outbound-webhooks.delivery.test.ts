import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq, inArray } from 'drizzle-orm'
import { alert, dispatch, registration, webhookSubscription } from '../../db/schema'
import { buildTestApp, type TestContext } from '../../test/helpers'
import { insertCourses } from '../courses/courses.test-data'
import { insertDispatches, insertRegistrations } from '../dispatches/dispatches.test-data'
import { outboundWebhooksOf } from './outbound-webhooks.parts'
import { startReceiver, type Receiver } from './outbound-webhooks.test-support'

/**
 * Deliveries end to end, against real HTTP receivers started here that check every signature
 * with their own Standard Webhooks verification: events written in the transaction of each
 * change (dispatches, a completion posted back, course requests, licence alerts), a client
 * subscription receiving its own company's only, retries through refusals and stalls with no
 * event lost and one dispatch's events in order, redirects refused, and a subscription that
 * keeps failing paused with a mail to its owner. The retry schedule is shortened (no waiting).
 */
type H = { 'x-auth-token': string }
let t: TestContext
let admin: H
let client: H
const receivers: Receiver[] = []
const BASE = '/api/integrations/webhooks'

beforeAll(async () => {
  t = await buildTestApp({
    webhooks: { allowPrivateTargets: true, retryDelaysMs: [0, 0, 0, 0], timeoutMs: 3_000, pauseAfterFinalFailures: 2 },
  })
  await t.createCompany('hook-a', 'Hook Alpha')
  await t.createCompany('hook-b', 'Hook Beta')
  admin = (await t.loginAs('admin')).headers
  client = (await t.loginAs('client', { companyId: 'hook-a' })).headers
  await t.app.inject({
    method: 'PUT',
    url: '/api/admin/companies/hook-a/api-keys',
    headers: admin,
    payload: { allowed: true },
  })
  await insertCourses(t.database.db, [
    { id: 'hook-course', title: 'Hook Course', isVisible: true },
    { id: 'hook-wanted', title: 'Hook Wanted', isVisible: true },
  ])
})
afterAll(async () => {
  await t.close()
  for (const r of receivers) await r.close()
})

/** A receiver and a subscription pointing to it, the receiver holding its secret. */
async function subscribe(headers: H, events: string[]) {
  const receiver = await startReceiver()
  receivers.push(receiver)
  const res = await t.app.inject({ method: 'POST', url: BASE, headers, payload: { url: receiver.url, events } })
  expect(res.statusCode, res.body).toBe(201)
  const { subscription, secret } = res.json<{ subscription: { id: string }; secret: string }>()
  receiver.useSecret(secret)
  return { receiver, id: subscription.id }
}
const deliver = () => outboundWebhooksOf(t.app).deliverNow()
const deliveries = async (id: string, headers: H = admin) =>
  (await t.app.inject({ method: 'GET', url: `${BASE}/${id}/deliveries`, headers })).json().deliveries as {
    id: number
    eventId: string
    eventType: string
    status: string
    attempts: number
    statusCode: number | null
    responseExcerpt: string | null
    error: string | null
  }[]
const setDispatch = (id: string, values: Partial<typeof dispatch.$inferInsert>) =>
  t.database.db.update(dispatch).set(values).where(eq(dispatch.id, id))
/**
 * The events a receiver accepted about one dispatch, in arrival order, each once: delivery is at
 * least once, so an answer slower than the timeout on a busy machine may bring a repeat (same
 * webhook-id), which a receiver drops.
 */
const typesFor = (r: Receiver, dispatchId: string) =>
  r.accepted
    .filter((e, i, all) => e.data.dispatchId === dispatchId && all.findIndex((o) => o.id === e.id) === i)
    .map((e) => e.type)

describe('events from every change, signed, to the right subscriptions only', () => {
  let mine: Awaited<ReturnType<typeof subscribe>>
  let vendor: Awaited<ReturnType<typeof subscribe>>
  beforeAll(async () => {
    const all = [
      'dispatch.created',
      'dispatch.changed',
      'dispatch.disabled',
      'dispatch.removed',
      'licence.threshold_crossed',
      'licence.expiry_approaching',
      'course_request.created',
      'course_request.status_changed',
      'registration.completed',
    ]
    mine = await subscribe(client, all)
    vendor = await subscribe(admin, all)
  })

  it('a dispatch created, changed, disabled and removed: in order, to its company and the vendor', async () => {
    await insertDispatches(t.database.db, [
      { id: 'hd-a', destinationId: 'hook-a', courseId: 'hook-course', registrationCap: 10 },
      { id: 'hd-b', destinationId: 'hook-b', courseId: 'hook-course' },
    ])
    await setDispatch('hd-a', { registrationCap: 20 })
    // The registration count alone is no change (it moves with every launch).
    await setDispatch('hd-a', { registrationCount: 3 })
    await setDispatch('hd-a', { enabled: false })
    await setDispatch('hd-a', { removedAt: new Date() })
    await deliver()
    expect(typesFor(mine.receiver, 'hd-a')).toEqual([
      'dispatch.created',
      'dispatch.changed',
      'dispatch.disabled',
      'dispatch.removed',
    ])
    expect(typesFor(vendor.receiver, 'hd-a')).toEqual(typesFor(mine.receiver, 'hd-a'))
    // Company B's dispatch: the vendor only.
    expect(typesFor(vendor.receiver, 'hd-b')).toEqual(['dispatch.created'])
    expect(mine.receiver.accepted.some((e) => e.data.companyId !== 'hook-a')).toBe(false)
    const changed = mine.receiver.accepted.find((e) => e.type === 'dispatch.changed')!
    expect(changed.data).toMatchObject({ dispatchId: 'hd-a', companyId: 'hook-a', registrationCap: 20 })
  })

  it('nothing for a change that rolled back', async () => {
    await insertDispatches(t.database.db, [{ id: 'hd-rb', destinationId: 'hook-a', courseId: 'hook-course' }])
    await deliver()
    await expect(
      t.database.db.transaction(async (tx) => {
        await tx.update(dispatch).set({ enabled: false }).where(eq(dispatch.id, 'hd-rb'))
        throw new Error('rolled back')
      }),
    ).rejects.toThrow('rolled back')
    await deliver()
    expect(typesFor(mine.receiver, 'hd-rb')).toEqual(['dispatch.created'])
  })

  it('a completion posted back by SCORM Cloud: registration.completed with the learner', async () => {
    await insertDispatches(t.database.db, [{ id: 'hd-c', destinationId: 'hook-a', courseId: 'hook-course' }])
    const postback = (completion: string, updated: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/webhooks/scorm-cloud/registrations',
        headers: {
          authorization: `Basic ${Buffer.from('scorm-cloud:postback-secret').toString('base64')}`,
          'content-type': 'application/json',
        },
        payload: {
          id: 'hook-reg-1',
          dispatchId: 'hd-c',
          updated,
          registrationCompletion: completion,
          registrationSuccess: 'PASSED',
          completedDate: completion === 'COMPLETED' ? updated : undefined,
          course: { id: 'hook-course' },
          learner: { id: 'l-1', firstName: 'Lee', lastName: 'Learner', email: 'lee@example.test' },
        },
      })
    expect((await postback('INCOMPLETE', '2026-05-01T10:00:00.000Z')).statusCode).toBe(200)
    expect((await postback('COMPLETED', '2026-05-01T11:00:00.000Z')).statusCode).toBe(200)
    // Sent again by SCORM Cloud: not a second completion.
    expect((await postback('COMPLETED', '2026-05-01T11:00:00.000Z')).statusCode).toBe(200)
    await deliver()
    const completions = mine.receiver.accepted.filter((e) => e.type === 'registration.completed')
    expect(new Set(completions.map((e) => e.id)).size).toBe(1)
    expect(completions[0]!.data).toMatchObject({
      registrationId: 'hook-reg-1',
      dispatchId: 'hd-c',
      companyId: 'hook-a',
      completionStatus: 'completed',
      successStatus: 'passed',
      learner: { id: 'l-1', firstName: 'Lee', lastName: 'Learner', email: 'lee@example.test' },
    })
  })

  it("a sync run's bulk writes: each registration that becomes completed once, none for the others", async () => {
    await insertDispatches(t.database.db, [{ id: 'hd-s', destinationId: 'hook-a', courseId: 'hook-course' }])
    // One statement for many rows, as the sync writes a page: two new ones already completed…
    await insertRegistrations(t.database.db, [
      { id: 'sync-r1', dispatchId: 'hd-s', completionStatus: 'completed', completedDate: new Date('2026-05-02') },
      { id: 'sync-r2', dispatchId: 'hd-s', completionStatus: 'incomplete' },
      { id: 'sync-r3', dispatchId: 'hd-s', completionStatus: 'completed', completedDate: new Date('2026-05-01') },
      { id: 'sync-r4', dispatchId: 'hd-s', completionStatus: 'incomplete' },
    ])
    // …then one update that completes r2 and touches r1 (already completed) again.
    await t.database.db
      .update(registration)
      .set({ completionStatus: 'completed', completedDate: new Date('2026-05-03') })
      .where(inArray(registration.id, ['sync-r1', 'sync-r2']))
    await deliver()
    const completed = mine.receiver.accepted
      .filter(
        (e, i, all) =>
          e.type === 'registration.completed' &&
          e.data.dispatchId === 'hd-s' &&
          all.findIndex((o) => o.id === e.id) === i,
      )
      .map((e) => e.data.registrationId)
    expect(completed).toEqual(['sync-r3', 'sync-r1', 'sync-r2'])
  })

  it('course requests and licence alerts', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/course-requests',
      headers: client,
      payload: { courseId: 'hook-wanted', licenses: 5 },
    })
    expect(created.statusCode, created.body).toBe(201)
    const requestId = created.json().id as string
    const status = await t.app.inject({
      method: 'PUT',
      url: `/api/course-requests/${requestId}/status`,
      headers: admin,
      payload: { status: 'PROCESSED' },
    })
    expect(status.statusCode, status.body).toBe(200)
    await insertDispatches(t.database.db, [{ id: 'hd-l', destinationId: 'hook-a', courseId: 'hook-course' }])
    await t.database.db.insert(alert).values({
      kind: 'usage',
      level: 90,
      dispatchId: 'hd-l',
      companyId: 'hook-a',
      companyName: 'Hook Alpha',
      courseTitle: 'Hook Course',
      registrationCount: 9,
      registrationCap: 10,
    })
    await deliver()
    const types = mine.receiver.accepted.map((e) => e.type)
    expect(types).toEqual(
      expect.arrayContaining(['course_request.created', 'course_request.status_changed', 'licence.threshold_crossed']),
    )
    const changed = mine.receiver.accepted.find((e) => e.type === 'course_request.status_changed')!
    expect(changed.data).toMatchObject({ requestId, status: 'PROCESSED', previousStatus: 'PENDING', licenses: 5 })
    const licence = mine.receiver.accepted.find((e) => e.type === 'licence.threshold_crossed')!
    expect(licence.data).toMatchObject({ dispatchId: 'hd-l', thresholdPercent: 90, registrationCap: 10 })
  })

  it("while an admin turns the company's integrations off, its subscriptions get nothing (the vendor's still do)", async () => {
    const allow = (allowed: boolean) =>
      t.app.inject({ method: 'PUT', url: '/api/admin/companies/hook-a/api-keys', headers: admin, payload: { allowed } })
    expect((await allow(false)).statusCode).toBe(200)
    await insertDispatches(t.database.db, [{ id: 'hd-off', destinationId: 'hook-a', courseId: 'hook-course' }])
    await deliver()
    expect((await allow(true)).statusCode).toBe(200)
    await deliver()
    expect(typesFor(mine.receiver, 'hd-off')).toEqual([])
    expect(typesFor(vendor.receiver, 'hd-off')).toEqual(['dispatch.created'])
  })

  it('the delivery log: status, attempts, a bounded excerpt of the answer; a test event and "send again"', async () => {
    const log = await deliveries(mine.id, client)
    expect(log.length).toBeGreaterThan(5)
    expect(log.every((d) => d.status === 'succeeded' && d.statusCode === 200 && d.attempts >= 1)).toBe(true)
    // The receiver answers 3 KB; 1 KB is kept.
    expect(log[0]!.responseExcerpt).toHaveLength(1024)
    const before = mine.receiver.accepted.length
    expect((await t.app.inject({ method: 'POST', url: `${BASE}/${mine.id}/test`, headers: client })).statusCode).toBe(
      202,
    )
    const completion = log.find((d) => d.eventType === 'registration.completed')!
    const again = await t.app.inject({
      method: 'POST',
      url: `${BASE}/${mine.id}/deliveries/${completion.id}/resend`,
      headers: client,
    })
    expect(again.statusCode).toBe(202)
    await deliver()
    const fresh = new Set(mine.receiver.accepted.slice(before).map((e) => e.type))
    expect([...fresh].sort()).toEqual(['registration.completed', 'webhook.test'])
    // The same event again: the same webhook-id, so a receiver can tell a repeat.
    expect(mine.receiver.accepted.filter((e) => e.id === completion.eventId).length).toBeGreaterThanOrEqual(2)
    // The vendor got no test event of the client's subscription.
    expect(vendor.receiver.accepted.some((e) => e.type === 'webhook.test')).toBe(false)
  })
})

describe('retries, order and failure', () => {
  it('through refusals (500) and a stall (timeout): every event delivered once accepted, one dispatch in order', async () => {
    await t.createCompany('hook-r', 'Hook Retry')
    const { receiver, id } = await subscribe(admin, ['dispatch.created', 'dispatch.changed', 'dispatch.disabled'])
    // The first event of hd-r1 is refused, then stalls, then refused again, then accepted; the
    // others of hd-r1 must wait for it. hd-r2 is refused once.
    receiver.behave(({ type, data, seen }) => {
      if (data.dispatchId === 'hd-r1' && type === 'dispatch.created')
        return (['fail', 'stall', 'fail'] as const)[seen] ?? 'ok'
      if (data.dispatchId === 'hd-r2' && seen === 0) return 'fail'
      return 'ok'
    })
    await insertDispatches(t.database.db, [
      { id: 'hd-r1', destinationId: 'hook-r', courseId: 'hook-course' },
      { id: 'hd-r2', destinationId: 'hook-r', courseId: 'hook-course' },
    ])
    await setDispatch('hd-r1', { notes: 'first' })
    await setDispatch('hd-r1', { notes: 'second' })
    await setDispatch('hd-r1', { enabled: false })
    await deliver()
    expect(typesFor(receiver, 'hd-r1')).toEqual([
      'dispatch.created',
      'dispatch.changed',
      'dispatch.changed',
      'dispatch.disabled',
    ])
    expect(typesFor(receiver, 'hd-r2')).toEqual(['dispatch.created'])
    const log = await deliveries(id)
    const first = log.find((d) => d.eventType === 'dispatch.created' && d.attempts >= 4)!
    expect(first).toMatchObject({ status: 'succeeded', statusCode: 200, error: null })
    expect(log.every((d) => d.status === 'succeeded')).toBe(true)
  })

  it('a delivery that finally fails lets the next event of its dispatch go; a redirect is a failure, not followed', async () => {
    const { receiver, id } = await subscribe(admin, ['dispatch.created', 'dispatch.changed'])
    receiver.behave(({ type, data }) => (data.dispatchId === 'hd-f' && type === 'dispatch.created' ? 'redirect' : 'ok'))
    await insertDispatches(t.database.db, [{ id: 'hd-f', destinationId: 'hook-r', courseId: 'hook-course' }])
    await setDispatch('hd-f', { notes: 'after the failure' })
    await deliver()
    expect(typesFor(receiver, 'hd-f')).toEqual(['dispatch.changed'])
    const failed = (await deliveries(id)).find((d) => d.eventType === 'dispatch.created')!
    expect(failed).toMatchObject({
      status: 'failed',
      attempts: 5,
      statusCode: 302,
      error: 'Redirects are not followed (answered 302 to http://127.0.0.1:1/elsewhere).',
    })
  })

  it('a subscription whose deliveries keep failing is paused and its owner mailed; events wait for nothing while paused', async () => {
    const owner = await t.loginAs('admin')
    const { receiver, id } = await subscribe(owner.headers, ['dispatch.created'])
    receiver.behave(() => 'fail')
    await insertDispatches(t.database.db, [
      { id: 'hd-p1', destinationId: 'hook-r', courseId: 'hook-course' },
      { id: 'hd-p2', destinationId: 'hook-r', courseId: 'hook-course' },
    ])
    await deliver()
    const [row] = await t.database.db.select().from(webhookSubscription).where(eq(webhookSubscription.id, id))
    expect(row).toMatchObject({ status: 'paused', pausedReason: 'Paused after 2 deliveries in a row failed.' })
    expect(receiver.requests).toBe(10)
    const outbox = await t.app.inject({ method: 'GET', url: '/api/admin/outbox', headers: admin })
    const mail = (outbox.json().items as { to: string; subject: string; textBody: string }[]).find(
      (m) => m.to === owner.user.email,
    )
    expect(mail).toMatchObject({ subject: 'Webhook paused after repeated failures' })
    expect(mail!.textBody).toContain(receiver.url)
    // Paused: a new event is not sent to it.
    await insertDispatches(t.database.db, [{ id: 'hd-p3', destinationId: 'hook-r', courseId: 'hook-course' }])
    await deliver()
    expect(receiver.requests).toBe(10)
    const listed = (await t.app.inject({ method: 'GET', url: BASE, headers: owner.headers })).json().subscriptions
    expect(listed.find((s: { id: string }) => s.id === id)).toMatchObject({ status: 'paused' })
  })
})
