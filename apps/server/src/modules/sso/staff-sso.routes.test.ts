import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { and, count, desc, eq } from 'drizzle-orm'
import { activityLog, appUser, authSession } from '../../db/schema'
import { buildTestApp, type TestContext } from '../../test/helpers'
import { startOidcProvider, type ProviderAccount, type RunningProvider } from './oidc-provider'
import { signInAtProvider } from './sso.test-support'

const CALLBACK = 'http://portal.example.test/api/auth/sso/callback'
const SECRET = 'staff-secret-value-5521'

let t: TestContext
let admin: { 'x-auth-token': string }
let provider: RunningProvider
// The provider reads an account's groups when it makes a token: a test changes them in place.
const quinn: ProviderAccount = { email: 'quinn@vendor.test', name: 'Quinn Vendor', groups: ['portal-internal'] }
const nobody: ProviderAccount = { email: 'nora@vendor.test', name: 'Nora None', groups: ['marketing'] }
const client: ProviderAccount = { email: 'cleo@vendor.test', name: 'Cleo Client', groups: ['portal-internal'] }

beforeAll(async () => {
  t = await buildTestApp()
  admin = (await t.loginAs('admin')).headers
  await t.createCompany('co-client', 'Client Co')
  provider = await startOidcProvider({
    port: 0,
    clients: [{ clientId: 'staff', clientSecret: SECRET, redirectUris: [CALLBACK] }],
    accounts: [quinn, nobody, client, { email: 'carol@client.test', name: 'Carol', groups: ['portal-admins'] }],
  })
})
afterAll(async () => {
  await t.close()
  await provider.close()
})

const api = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, headers: object = admin, payload?: object) =>
  t.app.inject({ method, url, headers: headers as Record<string, string>, ...(payload ? { payload } : {}) })
const lastLog = async () => (await t.database.db.select().from(activityLog).orderBy(desc(activityLog.id)).limit(1))[0]!
const sessions = async () => (await t.database.db.select({ n: count() }).from(authSession))[0]!.n
const userCount = async () => (await t.database.db.select({ n: count() }).from(appUser))[0]!.n

/** A whole staff sign-in through the provider's pages: the callback's answer. */
async function signIn(login: string) {
  const start = await api('GET', '/api/auth/sso/staff/start', {})
  expect(start.statusCode).toBe(302)
  const cookie = String(start.headers['set-cookie']).split(';')[0]!
  const back = await signInAtProvider(start.headers.location as string, login, CALLBACK)
  return api('GET', `/api/auth/sso/callback?${new URL(back).search.slice(1)}`, { cookie })
}
async function session(login: string) {
  const done = await signIn(login)
  const code = /sso_code=([\w-]+)/.exec(done.headers.location as string)?.[1]
  expect(code, String(done.headers.location)).toBeTruthy()
  return (await api('POST', '/api/auth/sso/exchange', {}, { code })).json()
}

describe('the staff connection’s settings', () => {
  const routes = [
    ['GET', ''],
    ['PUT', ''],
    ['DELETE', ''],
    ['PUT', '/domains'],
    ['PUT', '/roles'],
    ['POST', '/test'],
  ] as const

  it('are for admins only: sales, internal and client get 403, no token 401', async () => {
    for (const role of ['sales', 'internal', 'client'] as const) {
      const { headers } = await t.loginAs(role, { companyId: role === 'client' ? 'co-client' : null })
      for (const [method, url] of routes) {
        expect((await api(method, `/api/admin/sso/staff${url}`, headers, {})).statusCode, `${role} ${url}`).toBe(403)
      }
    }
    for (const [method, url] of routes)
      expect((await api(method, `/api/admin/sso/staff${url}`, {})).statusCode).toBe(401)
    expect((await api('GET', '/api/admin/sso/staff')).json()).toEqual({
      connection: null,
      domains: [],
      roles: [],
      redirectUri: CALLBACK,
    })
  })

  it('saves the connection (secret write-only), its domains and the mapping of groups to roles, audited', async () => {
    const res = await api('PUT', '/api/admin/sso/staff', admin, {
      displayName: 'Vendor',
      issuer: provider.issuer,
      clientId: 'staff',
      clientSecret: SECRET,
      scopes: 'openid email profile groups',
    })
    expect(res.statusCode).toBe(200)
    expect(res.body).not.toContain(SECRET)
    expect(res.json().connection).toMatchObject({
      displayName: 'Vendor',
      roleClaim: 'groups',
      oidc: { issuer: provider.issuer, clientSecretSet: true },
    })
    expect(await lastLog()).toMatchObject({ action: 'SSO_CONNECTION_SAVED', details: { staff: true, created: true } })

    const roles = await api('PUT', '/api/admin/sso/staff/roles', admin, {
      roles: [
        { claimValue: 'portal-internal', role: 'internal' },
        { claimValue: 'portal-sales', role: 'sales' },
      ],
    })
    expect(roles.json().roles).toEqual([
      { claimValue: 'portal-internal', role: 'internal' },
      { claimValue: 'portal-sales', role: 'sales' },
    ])
    expect(await lastLog()).toMatchObject({ action: 'SSO_STAFF_ROLES_UPDATED' })
    const twice = await api('PUT', '/api/admin/sso/staff/roles', admin, {
      roles: [
        { claimValue: 'x', role: 'sales' },
        { claimValue: 'x', role: 'admin' },
      ],
    })
    expect(twice.statusCode).toBe(400)
    expect(twice.json().message).toBe('The value "x" is mapped twice.')
    const client = await api('PUT', '/api/admin/sso/staff/roles', admin, {
      roles: [{ claimValue: 'x', role: 'client' }],
    })
    expect(client.statusCode).toBe(400)
    expect((await api('GET', '/api/admin/sso/staff')).json().roles).toHaveLength(2)

    expect((await api('PUT', '/api/admin/sso/staff/domains', admin, { domains: ['vendor.test'] })).statusCode).toBe(200)
    // A company cannot take a staff domain, and the staff connection cannot take a company's.
    const taken = await api('PUT', '/api/admin/companies/co-client/sso/domains', admin, { domains: ['vendor.test'] })
    expect(taken.statusCode).toBe(409)
    expect(taken.json().message).toContain('already belongs to the staff sign-in')
    await api('PUT', '/api/admin/companies/co-client/sso/domains', admin, { domains: ['client.test'] })
    const theirs = await api('PUT', '/api/admin/sso/staff/domains', admin, { domains: ['vendor.test', 'client.test'] })
    expect(theirs.statusCode).toBe(409)
    expect((await api('GET', '/api/admin/sso/staff')).json().domains).toEqual(['vendor.test'])
  })

  it('offers the staff sign-in on the sign-in screen for the staff domain', async () => {
    expect((await api('GET', '/api/auth/sso/lookup?email=someone@vendor.test', {})).json()).toEqual({
      sso: true,
      companyId: null,
      companyName: 'Vendor',
      startPath: '/api/auth/sso/staff/start',
    })
  })

  it('tests the connection by discovery', async () => {
    expect((await api('POST', '/api/admin/sso/staff/test')).json()).toMatchObject({ ok: true, issuer: provider.issuer })
  })

  it('runs a test sign-in that shows the admin the group claim, signing nobody in or creating anyone', async () => {
    const start = await api('POST', '/api/admin/sso/staff/test/start')
    expect(start.statusCode).toBe(200)
    const cookie = String(start.headers['set-cookie']).split(';')[0]!
    const beforeUsers = await userCount()
    const back = await signInAtProvider(start.json().location, nobody.email, CALLBACK)
    const done = await api('GET', `/api/auth/sso/callback?${new URL(back).search.slice(1)}`, { cookie })
    const id = /^\/settings\?sso_test=([0-9a-f-]{36})$/.exec(done.headers.location as string)?.[1]
    expect(id, String(done.headers.location)).toBeTruthy()
    const result = await api('GET', `/api/admin/sso/staff/test/${id}`)
    expect(result.json()).toMatchObject({
      ok: true,
      protocol: 'oidc',
      email: nobody.email,
      claims: { email: nobody.email, groups: ['marketing'] },
    })
    expect(result.body).not.toMatch(/eyJ/)
    expect(await userCount()).toBe(beforeUsers)
    // The admin's own: another admin gets 404, a company's test address does not reach it.
    const other = (await t.loginAs('admin')).headers
    expect((await api('GET', `/api/admin/sso/staff/test/${id}`, other)).statusCode).toBe(404)
    expect((await api('GET', `/api/admin/companies/co-client/sso/test/${id}`)).statusCode).toBe(404)
    const sales = (await t.loginAs('sales')).headers
    expect((await api('POST', '/api/admin/sso/staff/test/start', sales)).statusCode).toBe(403)
    expect((await api('GET', `/api/admin/sso/staff/test/${id}`, {})).statusCode).toBe(401)
  })
})

describe('staff sign-in through the provider', () => {
  it('creates a staff member with the role their group maps to', async () => {
    const s = await session(quinn.email)
    expect(s.user).toMatchObject({ email: quinn.email, role: 'internal', companyId: null, name: 'Quinn Vendor' })
    expect(await lastLog()).toMatchObject({ action: 'LOGIN_SUCCESS', details: { method: 'oidc', companyId: null } })
  })

  it('follows the provider at the next sign-in: the new role is applied, audited, old tokens ended', async () => {
    const first = await session(quinn.email)
    quinn.groups = ['portal-sales']
    const second = await session(quinn.email)
    expect(second.user.role).toBe('sales')
    const [changed] = await t.database.db
      .select()
      .from(activityLog)
      .where(eq(activityLog.action, 'SSO_STAFF_ROLE_CHANGED'))
      .orderBy(desc(activityLog.id))
      .limit(1)
    expect(changed!.details).toMatchObject({ email: quinn.email, before: 'internal', after: 'sales' })
    // The access token issued under the old role no longer works.
    expect((await api('GET', '/api/auth/me', { 'x-auth-token': first.accessToken })).statusCode).toBe(401)
    expect((await api('GET', '/api/auth/me', { 'x-auth-token': second.accessToken })).json().role).toBe('sales')
  })

  it('refuses a member whose groups map to no role, creating nobody; an existing one too', async () => {
    const [beforeSessions, beforeUsers] = [await sessions(), await userCount()]
    const res = await signIn(nobody.email)
    expect(res.headers.location).toBe('/login?sso_error=no_role')
    expect(await lastLog()).toMatchObject({
      action: 'LOGIN_FAILED',
      details: { method: 'oidc', reason: 'no role mapping matches' },
    })
    quinn.groups = ['someone-removed-me']
    expect((await signIn(quinn.email)).headers.location).toBe('/login?sso_error=no_role')
    expect(await sessions()).toBe(beforeSessions)
    expect(await userCount()).toBe(beforeUsers)
    const [row] = await t.database.db.select().from(appUser).where(eq(appUser.email, quinn.email))
    expect(row!.role).toBe('sales')
  })

  it('refuses a client user and an e-mail of a company’s domain at the staff connection', async () => {
    await t.createUser('client', { companyId: 'co-client', email: client.email })
    expect((await signIn(client.email)).headers.location).toBe('/login?sso_error=not_member')
    expect((await signIn('carol@client.test')).headers.location).toBe('/login?sso_error=other_company')
    expect(
      await t.database.db
        .select()
        .from(appUser)
        .where(and(eq(appUser.email, 'carol@client.test'))),
    ).toEqual([])
  })
})
