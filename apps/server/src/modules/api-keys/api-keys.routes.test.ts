import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { activityLog, apiKey, appUser } from '../../db/schema'
import { buildTestApp, type TestContext } from '../../test/helpers'
import { insertCourses } from '../courses/courses.test-data'
import { insertDispatches } from '../dispatches/dispatches.test-data'
import { API_KEY_MESSAGES } from './api-keys.service'

/**
 * API keys end to end: made by an admin (the vendor's) and by a client user (its company's, once
 * an admin allows it), used as `Authorization: Bearer`, refused when revoked, rotated, expired,
 * malformed, out of scope or out of company; only hashes stored; every call audited.
 */
let t: TestContext
let admin: { 'x-auth-token': string }
let client: { 'x-auth-token': string }
let clientUserId: string
beforeAll(async () => {
  t = await buildTestApp()
  await t.createCompany('keys-a', 'Keys Alpha')
  await t.createCompany('keys-b', 'Keys Beta')
  await insertCourses(t.database.db, [{ id: 'keys-course', title: 'Keys Course', isVisible: true }])
  await insertDispatches(t.database.db, [
    { id: 'keys-dispatch-a', destinationId: 'keys-a', courseId: 'keys-course' },
    { id: 'keys-dispatch-b', destinationId: 'keys-b', courseId: 'keys-course' },
  ])
  admin = (await t.loginAs('admin')).headers
  const signed = await t.loginAs('client', { companyId: 'keys-a' })
  client = signed.headers
  clientUserId = signed.user.id
})
afterAll(async () => t.close())

type Created = { key: { id: string; prefix: string; scopes: string[] }; secret: string }
const create = (headers: Record<string, string>, payload: object) =>
  t.app.inject({ method: 'POST', url: '/api/api-keys', headers, payload })
const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` })
const get = (url: string, secret: string) => t.app.inject({ method: 'GET', url, headers: bearer(secret) })

async function allowCompany(id: string, allowed: boolean) {
  const res = await t.app.inject({
    method: 'PUT',
    url: `/api/admin/companies/${id}/api-keys`,
    headers: admin,
    payload: { allowed },
  })
  expect(res.statusCode).toBe(200)
}

describe('an admin key (the vendor)', () => {
  it('is shown once with its prefix, stored only as a hash, and lists without its secret', async () => {
    const res = await create(admin, { name: 'CRM sync', scopes: ['dispatch:read'] })
    expect(res.statusCode).toBe(201)
    const { key, secret } = res.json<Created>()
    expect(secret).toMatch(/^dp_live_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/)
    expect(secret.startsWith(`${key.prefix}_`)).toBe(true)

    const list = await t.app.inject({ method: 'GET', url: '/api/api-keys', headers: admin })
    expect(list.body).not.toContain(secret)
    expect(list.json().keys.map((k: { id: string }) => k.id)).toContain(key.id)

    const rows = await t.database.db.select().from(apiKey).where(eq(apiKey.id, key.id))
    expect(JSON.stringify(rows)).not.toContain(secret.slice(key.prefix.length + 1))
    expect(rows[0]!.secretHash).toBe(createHash('sha256').update(secret).digest('hex'))
  })

  it('acts with its scopes: reads dispatches of every company, not the log (403), is audited and noted', async () => {
    const { key, secret } = (await create(admin, { name: 'Reader', scopes: ['dispatch:read'] })).json<Created>()
    const list = await get('/api/dispatches', secret)
    expect(list.statusCode).toBe(200)
    expect(
      list
        .json()
        .dispatches.map((d: { id: string }) => d.id)
        .sort(),
    ).toEqual(['keys-dispatch-a', 'keys-dispatch-b'])
    const logs = await get('/api/logs', secret)
    expect(logs.statusCode).toBe(403)
    expect(logs.json().message).toBe(API_KEY_MESSAGES.outOfScope('log:read'))
    // Routes of a person, never of a key.
    expect((await get('/api/auth/me', secret)).statusCode).toBe(403)
    expect((await get('/api/api-keys', secret)).statusCode).toBe(403)

    // Audited after the answer is sent: wait for the rows.
    const auditedStatuses = async () => {
      const rows = await t.database.db.select().from(activityLog).where(eq(activityLog.action, 'API_KEY_CALL'))
      return rows.filter((r) => (r.details as { apiKeyId?: string }).apiKeyId === key.id)
    }
    await expect
      .poll(async () => (await auditedStatuses()).map((r) => (r.details as { status: number }).status).sort())
      .toEqual([200, 403, 403, 403])
    expect((await auditedStatuses())[0]!.actorName).toContain('API key "Reader"')
    const shown = (await t.app.inject({ method: 'GET', url: '/api/api-keys', headers: admin }))
      .json()
      .keys.find((k: { id: string }) => k.id === key.id)
    expect(shown.lastUsedAt).not.toBeNull()
    expect(shown.lastUsedIp).toBe('127.0.0.1')
  })

  it('stops on the next call once revoked, and a rotated key stops its old secret', async () => {
    const { key, secret } = (await create(admin, { name: 'Short', scopes: ['dispatch:read'] })).json<Created>()
    expect((await get('/api/dispatches', secret)).statusCode).toBe(200)
    const rotated = await t.app.inject({ method: 'POST', url: `/api/api-keys/${key.id}/rotate`, headers: admin })
    expect(rotated.statusCode).toBe(200)
    const next = rotated.json<Created>().secret
    expect((await get('/api/dispatches', secret)).statusCode).toBe(401)
    expect((await get('/api/dispatches', next)).statusCode).toBe(200)

    const revoked = await t.app.inject({ method: 'DELETE', url: `/api/api-keys/${key.id}`, headers: admin })
    expect(revoked.statusCode).toBe(200)
    expect(revoked.json().revokedAt).not.toBeNull()
    const after = await get('/api/dispatches', next)
    expect(after.statusCode).toBe(401)
    expect(after.json()).toEqual({ code: 'UNAUTHENTICATED', message: API_KEY_MESSAGES.invalid })
    const again = await t.app.inject({ method: 'DELETE', url: `/api/api-keys/${key.id}`, headers: admin })
    expect(again.statusCode).toBe(409)
  })

  it('stops after its expiry, and when its creator is suspended', async () => {
    const { key, secret } = (
      await create(admin, { name: 'Expiring', scopes: ['dispatch:read'], expiresAt: '2099-01-01T00:00:00Z' })
    ).json<Created>()
    expect((await get('/api/dispatches', secret)).statusCode).toBe(200)
    await t.database.db
      .update(apiKey)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiKey.id, key.id))
    expect((await get('/api/dispatches', secret)).statusCode).toBe(401)

    const other = await t.loginAs('admin')
    const made = (await create(other.headers, { name: 'Creator', scopes: ['dispatch:read'] })).json<Created>()
    expect((await get('/api/dispatches', made.secret)).statusCode).toBe(200)
    await t.database.db.update(appUser).set({ status: 'suspended' }).where(eq(appUser.id, other.user.id))
    expect((await get('/api/dispatches', made.secret)).statusCode).toBe(401)
  })
})

describe('refusals', () => {
  it('a malformed bearer value is a 401 with a clear JSON error', async () => {
    for (const value of [
      'Bearer',
      'Bearer ',
      'Basic abc',
      'Bearer not-a-key',
      'Bearer dp_live_zz_short',
      'dp_live_x',
    ]) {
      const res = await t.app.inject({ method: 'GET', url: '/api/dispatches', headers: { authorization: value } })
      expect(res.statusCode, value).toBe(401)
      expect(res.json(), value).toEqual({ code: 'UNAUTHENTICATED', message: API_KEY_MESSAGES.malformed })
    }
    const unknown = `Bearer dp_live_0123456789ab_${'A'.repeat(43)}`
    const res = await t.app.inject({ method: 'GET', url: '/api/dispatches', headers: { authorization: unknown } })
    expect(res.statusCode).toBe(401)
    expect(res.json().message).toBe(API_KEY_MESSAGES.invalid)
  })

  it('an unknown scope, a past expiry and a bad date are 400s, and nothing is stored', async () => {
    const before = (await t.database.db.select().from(apiKey)).length
    for (const payload of [
      { name: 'x', scopes: ['dispatch:fly'] },
      { name: 'x', scopes: ['dispatch:read'], expiresAt: '2001-01-01T00:00:00Z' },
      { name: 'x', scopes: ['dispatch:read'], expiresAt: 'tomorrow' },
      { name: 'x', scopes: [] },
      { name: '', scopes: ['dispatch:read'] },
    ]) {
      const res = await create(admin, payload)
      expect(res.statusCode, JSON.stringify(payload)).toBe(400)
      expect(typeof res.json().message).toBe('string')
    }
    expect((await t.database.db.select().from(apiKey)).length).toBe(before)
  })
})

describe("a client company's key", () => {
  it('needs the company allowed by an admin', async () => {
    await allowCompany('keys-a', false)
    const list = await t.app.inject({ method: 'GET', url: '/api/api-keys', headers: client })
    expect(list.json()).toMatchObject({ allowed: false, grantable: [] })
    const res = await create(client, { name: 'HR', scopes: ['dispatch:read'] })
    expect(res.statusCode).toBe(403)
    expect(res.json().message).toBe(API_KEY_MESSAGES.notAllowed)
  })

  it('acts within its company only, never beyond its creator, and stops when the company is disallowed', async () => {
    await allowCompany('keys-a', true)
    const list = await t.app.inject({ method: 'GET', url: '/api/api-keys', headers: client })
    expect(list.json().allowed).toBe(true)
    expect(list.json().grantable).toContain('report:read')
    expect(list.json().grantable).not.toContain('log:read')

    // A scope the creator's role does not hold: refused, named.
    const denied = await create(client, { name: 'HR', scopes: ['dispatch:read', 'log:read'] })
    expect(denied.statusCode).toBe(400)
    expect(denied.json().message).toBe(API_KEY_MESSAGES.cannotGrant('log:read'))
    expect((await create(client, { name: 'HR', scopes: ['dispatch:write'] })).statusCode).toBe(400)

    const made = await create(client, { name: 'HR', scopes: ['dispatch:read', 'report:read', 'learner:read'] })
    expect(made.statusCode).toBe(201)
    const { key, secret } = made.json<Created>()
    const rows = await t.database.db.select().from(apiKey).where(eq(apiKey.id, key.id))
    expect(rows[0]).toMatchObject({ companyId: 'keys-a', createdBy: clientUserId })

    const dispatches = await get('/api/dispatches', secret)
    expect(dispatches.json().dispatches.map((d: { id: string }) => d.id)).toEqual(['keys-dispatch-a'])
    expect((await get('/api/dispatches/keys-dispatch-a', secret)).statusCode).toBe(200)
    expect((await get('/api/dispatches/keys-dispatch-b', secret)).statusCode).toBe(404)
    expect((await get('/api/reports/dispatch/keys-dispatch-b', secret)).statusCode).toBe(404)
    expect((await get('/api/logs', secret)).statusCode).toBe(403)

    // The admin sees the company's key; another company's client does not.
    const all = (await t.app.inject({ method: 'GET', url: '/api/api-keys', headers: admin })).json()
    expect(all.keys.find((k: { id: string }) => k.id === key.id)).toMatchObject({ companyName: 'Keys Alpha' })
    await allowCompany('keys-b', true)
    const other = await t.loginAs('client', { companyId: 'keys-b' })
    const theirs = (await t.app.inject({ method: 'GET', url: '/api/api-keys', headers: other.headers })).json()
    expect(theirs.keys).toEqual([])
    const foreign = await t.app.inject({ method: 'DELETE', url: `/api/api-keys/${key.id}`, headers: other.headers })
    expect(foreign.statusCode).toBe(404)

    await allowCompany('keys-a', false)
    expect((await get('/api/dispatches', secret)).statusCode).toBe(401)
    await allowCompany('keys-a', true)
    expect((await get('/api/dispatches', secret)).statusCode).toBe(200)
  })
})

describe('the per-key rate limit', () => {
  it('answers 429 with Retry-After once a key spends its budget; another key is unaffected', async () => {
    const limited = await buildTestApp({ apiKeyRateLimit: { max: 2, timeWindowMs: 60_000 } })
    try {
      const { headers } = await limited.loginAs('admin')
      const make = async (name: string) =>
        (
          await limited.app.inject({
            method: 'POST',
            url: '/api/api-keys',
            headers,
            payload: { name, scopes: ['dispatch:read'] },
          })
        ).json<Created>().secret
      const [one, two] = [await make('one'), await make('two')]
      const call = (secret: string) =>
        limited.app.inject({ method: 'GET', url: '/api/dispatches', headers: bearer(secret) })
      expect((await call(one)).statusCode).toBe(200)
      expect((await call(one)).statusCode).toBe(200)
      const third = await call(one)
      expect(third.statusCode).toBe(429)
      expect(Number(third.headers['retry-after'])).toBeGreaterThan(0)
      expect(third.json().code).toBe('TOO_MANY_REQUESTS')
      expect((await call(two)).statusCode).toBe(200)
      // The session path has no such budget.
      for (let i = 0; i < 3; i += 1) {
        expect((await limited.app.inject({ method: 'GET', url: '/api/dispatches', headers })).statusCode).toBe(200)
      }
    } finally {
      await limited.close()
    }
  })
})
