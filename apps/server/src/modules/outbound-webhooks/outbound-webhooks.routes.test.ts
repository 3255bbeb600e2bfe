import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { WEBHOOK_MAX_PER_OWNER } from '@portal/shared'
import { activityLog, webhookSubscription } from '../../db/schema'
import { buildTestApp, type TestContext } from '../../test/helpers'
import { WEBHOOK_MESSAGES } from './outbound-webhooks.service'
import { outboundWebhooksOf } from './outbound-webhooks.parts'
import { startReceiver } from './outbound-webhooks.test-support'
import { URL_GUARD_MESSAGES } from './url-guard'

/**
 * Webhook subscriptions: an admin's (the vendor's) and a client user's (its company's, once an
 * admin allows integrations); every route allowed and denied; bad input refused with nothing
 * changed; the guard against private targets (private targets not allowed here).
 */
let t: TestContext
type H = { 'x-auth-token': string }
let admin: H
let client: H
let clientB: H
let internal: H
// A public address: nothing is delivered in this file (no job runs).
const PUBLIC_URL = 'https://1.1.1.1/hooks/portal'
beforeAll(async () => {
  // Private targets not allowed (the default outside demo mode); a short timeout in case.
  t = await buildTestApp({ webhooks: { timeoutMs: 1_000, retryDelaysMs: [] } })
  await t.createCompany('hooks-a', 'Hooks Alpha')
  await t.createCompany('hooks-b', 'Hooks Beta')
  admin = (await t.loginAs('admin')).headers
  client = (await t.loginAs('client', { companyId: 'hooks-a' })).headers
  clientB = (await t.loginAs('client', { companyId: 'hooks-b' })).headers
  internal = (await t.loginAs('internal')).headers
  const allow = await t.app.inject({
    method: 'PUT',
    url: '/api/admin/companies/hooks-a/api-keys',
    headers: admin,
    payload: { allowed: true },
  })
  expect(allow.statusCode).toBe(200)
})
afterAll(async () => t.close())

const BASE = '/api/integrations/webhooks'
type Created = { subscription: { id: string; companyId: string | null; url: string; status: string }; secret: string }
const create = (headers: H, payload: object) => t.app.inject({ method: 'POST', url: BASE, headers, payload })
const count = async () => (await t.database.db.select().from(webhookSubscription)).length

describe('creating', () => {
  it("a client's subscription is its company's, with a whsec_ secret shown in the answer and stored sealed", async () => {
    const res = await create(client, { url: PUBLIC_URL, events: ['registration.completed'], description: 'LMS' })
    expect(res.statusCode).toBe(201)
    const { subscription, secret } = res.json<Created>()
    expect(subscription.companyId).toBe('hooks-a')
    expect(subscription.status).toBe('active')
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32)
    const [row] = await t.database.db
      .select()
      .from(webhookSubscription)
      .where(eq(webhookSubscription.id, subscription.id))
    expect(row!.secretSealed).not.toContain(secret.slice(6))
    const list = await t.app.inject({ method: 'GET', url: BASE, headers: client })
    expect(list.statusCode).toBe(200)
    expect(list.body).not.toContain(secret)
    expect(list.json().subscriptions.map((s: { id: string }) => s.id)).toEqual([subscription.id])
    const logged = await t.database.db.select().from(activityLog).where(eq(activityLog.action, 'WEBHOOK_CREATED'))
    expect(logged.some((l) => (l.details as { webhookId?: string }).webhookId === subscription.id)).toBe(true)
  })

  it("an admin's subscription is the vendor's (no company) and the admin sees every company's", async () => {
    const res = await create(admin, { url: PUBLIC_URL, events: ['dispatch.created', 'dispatch.removed'] })
    expect(res.statusCode).toBe(201)
    expect(res.json<Created>().subscription.companyId).toBeNull()
    const list = await t.app.inject({ method: 'GET', url: BASE, headers: admin })
    const companies = list.json().subscriptions.map((s: { companyId: string | null }) => s.companyId)
    expect(companies).toEqual(expect.arrayContaining([null, 'hooks-a']))
  })

  it('is refused (403) to a client whose company does not allow integrations, and to staff without the permission', async () => {
    const before = await count()
    const refused = await create(clientB, { url: PUBLIC_URL, events: ['dispatch.created'] })
    expect(refused.statusCode).toBe(403)
    expect(refused.json().message).toBe(WEBHOOK_MESSAGES.notAllowed)
    const listB = await t.app.inject({ method: 'GET', url: BASE, headers: clientB })
    expect(listB.json()).toMatchObject({ allowed: false, subscriptions: [] })
    expect((await create(internal, { url: PUBLIC_URL, events: ['dispatch.created'] })).statusCode).toBe(403)
    expect((await t.app.inject({ method: 'GET', url: BASE, headers: internal })).statusCode).toBe(403)
    expect((await t.app.inject({ method: 'GET', url: BASE })).statusCode).toBe(401)
    expect(await count()).toBe(before)
  })
})

describe('bad input: a clear 400 (or 409) and nothing stored', () => {
  const cases: [string, object, string][] = [
    [
      'an unknown event',
      { url: PUBLIC_URL, events: ['dispatch.exploded'] },
      WEBHOOK_MESSAGES.unknownEvent('dispatch.exploded'),
    ],
    ['plain http', { url: 'http://1.1.1.1/hook', events: ['dispatch.created'] }, URL_GUARD_MESSAGES.notHttps],
    ['not a URL', { url: 'hooks at our place', events: ['dispatch.created'] }, URL_GUARD_MESSAGES.invalid],
    [
      'a too long URL',
      { url: `https://1.1.1.1/${'a'.repeat(2100)}`, events: ['dispatch.created'] },
      URL_GUARD_MESSAGES.tooLong,
    ],
    [
      'credentials in the URL',
      { url: 'https://u:p@1.1.1.1/', events: ['dispatch.created'] },
      URL_GUARD_MESSAGES.credentials,
    ],
    [
      'loopback',
      { url: 'https://127.0.0.1/hook', events: ['dispatch.created'] },
      URL_GUARD_MESSAGES.privateTarget('127.0.0.1'),
    ],
    [
      '10.x',
      { url: 'https://10.1.2.3/hook', events: ['dispatch.created'] },
      URL_GUARD_MESSAGES.privateTarget('10.1.2.3'),
    ],
    [
      '192.168.x',
      { url: 'https://192.168.0.10/', events: ['dispatch.created'] },
      URL_GUARD_MESSAGES.privateTarget('192.168.0.10'),
    ],
    [
      '169.254.x (cloud metadata)',
      { url: 'https://169.254.169.254/latest', events: ['dispatch.created'] },
      URL_GUARD_MESSAGES.privateTarget('169.254.169.254'),
    ],
    ['::1', { url: 'https://[::1]:8443/hook', events: ['dispatch.created'] }, URL_GUARD_MESSAGES.privateTarget('::1')],
    [
      'fc00:: (unique local)',
      { url: 'https://[fc00::5]/hook', events: ['dispatch.created'] },
      URL_GUARD_MESSAGES.privateTarget('fc00::5'),
    ],
    [
      'an IPv4-mapped loopback',
      { url: 'https://[::ffff:127.0.0.1]/', events: ['dispatch.created'] },
      URL_GUARD_MESSAGES.privateTarget('::ffff:7f00:1'),
    ],
  ]
  it.each(cases)('%s', async (_name, payload, message) => {
    const before = await count()
    const res = await create(client, payload)
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toBe(message)
    expect(await count()).toBe(before)
  })

  it('a host name that resolves to loopback (localhost)', async () => {
    const before = await count()
    const res = await create(client, { url: 'https://localhost:8443/hook', events: ['dispatch.created'] })
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toMatch(/^The URL points to a private, loopback.*\((127\.0\.0\.1|::1)\)/)
    expect(await count()).toBe(before)
  })

  it('no events, or no URL, is refused by the schema', async () => {
    const before = await count()
    expect((await create(client, { url: PUBLIC_URL, events: [] })).statusCode).toBe(400)
    expect((await create(client, { events: ['dispatch.created'] })).statusCode).toBe(400)
    expect(await count()).toBe(before)
  })

  it(`at most ${WEBHOOK_MAX_PER_OWNER} subscriptions per company: the next is a 409`, async () => {
    await t.createCompany('hooks-c', 'Hooks Gamma')
    await t.app.inject({
      method: 'PUT',
      url: '/api/admin/companies/hooks-c/api-keys',
      headers: admin,
      payload: { allowed: true },
    })
    const c = (await t.loginAs('client', { companyId: 'hooks-c' })).headers
    for (let i = 0; i < WEBHOOK_MAX_PER_OWNER; i += 1) {
      expect((await create(c, { url: `${PUBLIC_URL}/${i}`, events: ['dispatch.created'] })).statusCode).toBe(201)
    }
    const before = await count()
    const res = await create(c, { url: PUBLIC_URL, events: ['dispatch.created'] })
    expect(res.statusCode).toBe(409)
    expect(res.json().message).toBe(WEBHOOK_MESSAGES.tooMany)
    expect(await count()).toBe(before)
  })
})

describe('editing, pausing, revealing, deleting', () => {
  let id: string
  let secret: string
  beforeAll(async () => {
    const res = (await create(client, { url: PUBLIC_URL, events: ['dispatch.created'] })).json<Created>()
    id = res.subscription.id
    secret = res.secret
  })

  it('edits url and events, pauses and resumes (the owner; a company without integrations and staff get 403)', async () => {
    const edit = await t.app.inject({
      method: 'PATCH',
      url: `${BASE}/${id}`,
      headers: client,
      payload: { url: 'https://1.0.0.1/new', events: ['dispatch.changed', 'registration.completed'] },
    })
    expect(edit.statusCode).toBe(200)
    expect(edit.json()).toMatchObject({
      url: 'https://1.0.0.1/new',
      events: ['dispatch.changed', 'registration.completed'],
    })
    const pause = await t.app.inject({
      method: 'PATCH',
      url: `${BASE}/${id}`,
      headers: client,
      payload: { status: 'paused' },
    })
    expect(pause.json()).toMatchObject({ status: 'paused', pausedReason: 'Paused by a person.' })
    const resume = await t.app.inject({
      method: 'PATCH',
      url: `${BASE}/${id}`,
      headers: client,
      payload: { status: 'active' },
    })
    expect(resume.json()).toMatchObject({ status: 'active', pausedReason: null })
    const foreign = await t.app.inject({
      method: 'PATCH',
      url: `${BASE}/${id}`,
      headers: clientB,
      payload: { status: 'paused' },
    })
    expect(foreign.statusCode).toBe(403)
    const staff = await t.app.inject({ method: 'PATCH', url: `${BASE}/${id}`, headers: internal, payload: {} })
    expect(staff.statusCode).toBe(403)
  })

  it('refuses a bad edit with nothing changed', async () => {
    const bad = await t.app.inject({
      method: 'PATCH',
      url: `${BASE}/${id}`,
      headers: client,
      payload: { url: 'https://10.0.0.1/', events: ['dispatch.created'] },
    })
    expect(bad.statusCode).toBe(400)
    const [row] = await t.database.db.select().from(webhookSubscription).where(eq(webhookSubscription.id, id))
    expect(row!.url).toBe('https://1.0.0.1/new')
    expect(row!.events).toEqual(['dispatch.changed', 'registration.completed'])
  })

  it('reveals the same secret to its owner (logged); not to another company', async () => {
    const res = await t.app.inject({ method: 'POST', url: `${BASE}/${id}/secret`, headers: client })
    expect(res.statusCode).toBe(200)
    expect(res.json().secret).toBe(secret)
    const other = await t.app.inject({ method: 'POST', url: `${BASE}/${id}/secret`, headers: clientB })
    expect(other.statusCode).toBe(403)
  })

  it('lists deliveries, sends a test event and resends: allowed to the owner and an admin, refused to staff', async () => {
    const test = await t.app.inject({ method: 'POST', url: `${BASE}/${id}/test`, headers: client })
    expect(test.statusCode).toBe(202)
    const log = await t.app.inject({ method: 'GET', url: `${BASE}/${id}/deliveries`, headers: client })
    expect(log.statusCode).toBe(200)
    const [delivery] = log.json().deliveries
    expect(delivery).toMatchObject({ eventType: 'webhook.test', status: 'pending', attempts: 0 })
    const again = await t.app.inject({
      method: 'POST',
      url: `${BASE}/${id}/deliveries/${delivery.id}/resend`,
      headers: client,
    })
    expect(again.statusCode).toBe(202)
    expect(
      (await t.app.inject({ method: 'GET', url: `${BASE}/${id}/deliveries`, headers: client })).json().deliveries,
    ).toHaveLength(2)
    expect((await t.app.inject({ method: 'GET', url: `${BASE}/${id}/deliveries`, headers: internal })).statusCode).toBe(
      403,
    )
    expect((await t.app.inject({ method: 'POST', url: `${BASE}/${id}/test`, headers: internal })).statusCode).toBe(403)
    expect(
      (await t.app.inject({ method: 'POST', url: `${BASE}/${id}/deliveries/999999/resend`, headers: client }))
        .statusCode,
    ).toBe(404)
    // An admin sees (and may stop) every company's subscription.
    expect((await t.app.inject({ method: 'GET', url: `${BASE}/${id}/deliveries`, headers: admin })).statusCode).toBe(
      200,
    )
  })

  it('deletes (owner); a second delete is a 404; another company cannot', async () => {
    expect((await t.app.inject({ method: 'DELETE', url: `${BASE}/${id}`, headers: clientB })).statusCode).toBe(403)
    expect((await t.app.inject({ method: 'DELETE', url: `${BASE}/${id}`, headers: client })).statusCode).toBe(200)
    expect((await t.app.inject({ method: 'DELETE', url: `${BASE}/${id}`, headers: client })).statusCode).toBe(404)
  })

  it("an allowed client cannot see another allowed company's subscription (404)", async () => {
    await t.app.inject({
      method: 'PUT',
      url: '/api/admin/companies/hooks-b/api-keys',
      headers: admin,
      payload: { allowed: true },
    })
    const mine = (await create(client, { url: PUBLIC_URL, events: ['dispatch.created'] })).json<Created>()
    const res = await t.app.inject({ method: 'POST', url: `${BASE}/${mine.subscription.id}/secret`, headers: clientB })
    expect(res.statusCode).toBe(404)
    expect(res.body).not.toContain(mine.secret)
  })
})

describe('the guard at connect time', () => {
  it('refuses a saved name that now resolves to loopback (DNS rebinding) and a literal private address, sending nothing', async () => {
    const receiver = await startReceiver()
    try {
      const { subscription } = (await create(client, { url: PUBLIC_URL, events: ['dispatch.created'] })).json<Created>()
      const send = async (url: string) => {
        // As if the name's DNS answer changed after it was saved (the row is written directly).
        await t.database.db.update(webhookSubscription).set({ url }).where(eq(webhookSubscription.id, subscription.id))
        await t.app.inject({ method: 'POST', url: `${BASE}/${subscription.id}/test`, headers: client })
        await outboundWebhooksOf(t.app).deliverNow()
        const log = await t.app.inject({ method: 'GET', url: `${BASE}/${subscription.id}/deliveries`, headers: client })
        return log.json().deliveries[0] as { status: string; error: string; statusCode: number | null }
      }
      const rebound = await send(`https://localhost:${receiver.port}/hook`)
      expect(rebound.status).toBe('failed')
      expect(rebound.statusCode).toBeNull()
      expect(rebound.error).toMatch(/points to a private, loopback.*\((127\.0\.0\.1|::1)\)/)
      const literal = await send(`https://127.0.0.1:${receiver.port}/hook`)
      expect(literal).toMatchObject({ status: 'failed', error: URL_GUARD_MESSAGES.privateTarget('127.0.0.1') })
      expect(receiver.requests).toBe(0)
    } finally {
      await receiver.close()
    }
  })
})
