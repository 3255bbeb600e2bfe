import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { and, count, desc, eq } from 'drizzle-orm'
import { SSO_MESSAGES } from '@portal/shared'
import { activityLog, appUser, authSession, ssoPasswordUser } from '../../db/schema'
import { buildTestApp, TEST_PASSWORD, type TestContext } from '../../test/helpers'
import { startOidcProvider, type RunningProvider } from './oidc-provider'
import { signInAtProvider, startCraftedProvider } from './sso.test-support'

const CALLBACK = 'http://portal.example.test/api/auth/sso/callback'
const SECRET = 'client-secret-value-4471'

let t: TestContext
let admin: { 'x-auth-token': string }
let provider: RunningProvider
let crafted: Awaited<ReturnType<typeof startCraftedProvider>>

beforeAll(async () => {
  t = await buildTestApp()
  admin = (await t.loginAs('admin')).headers
  await t.createCompany('co-strict', 'Strict Co')
  await t.createCompany('co-tested', 'Tested Co')
  await t.createCompany('co-crafted', 'Crafted Co')
  await t.createCompany('co-elsewhere', 'Elsewhere Co')
  provider = await startOidcProvider({
    port: 0,
    clients: [{ clientId: 'portal', clientSecret: SECRET, redirectUris: [CALLBACK] }],
    accounts: [{ email: 'tess@tested.test', name: 'Tess Tester' }],
  })
  crafted = await startCraftedProvider('crafted-client')
})
afterAll(async () => {
  await t.close()
  await provider.close()
  await crafted.close()
})

const api = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, headers: object = admin, payload?: object) =>
  t.app.inject({ method, url, headers: headers as Record<string, string>, ...(payload ? { payload } : {}) })
const oidcBody = (issuer: string, clientId: string, extra: object = {}) => ({
  protocol: 'oidc',
  issuer,
  clientId,
  clientSecret: SECRET,
  ssoRequired: false,
  createUsers: true,
  ...extra,
})
const lastLog = async () => (await t.database.db.select().from(activityLog).orderBy(desc(activityLog.id)).limit(1))[0]!
const sessions = async () => (await t.database.db.select({ n: count() }).from(authSession))[0]!.n
const userCount = async () => (await t.database.db.select({ n: count() }).from(appUser))[0]!.n
const login = (email: string) => api('POST', '/api/auth/login', {}, { email, password: TEST_PASSWORD })

describe('single sign-on required, with named users who keep their password', () => {
  let contractor: { id: string; email: string }
  let employee: { id: string; email: string }
  beforeAll(async () => {
    await api('PUT', '/api/admin/companies/co-strict/sso', admin, oidcBody(crafted.issuer, 'c', { ssoRequired: true }))
    contractor = await t.createUser('client', { companyId: 'co-strict', email: 'cody@contractor.test', name: 'Cody' })
    employee = await t.createUser('client', { companyId: 'co-strict', email: 'emma@strict.test' })
  })

  it('lets a named contractor sign in with a password while a colleague is told how to sign in', async () => {
    const res = await api('PUT', '/api/admin/companies/co-strict/sso/password-users', admin, {
      userIds: [contractor.id],
    })
    expect(res.statusCode).toBe(200)
    expect(res.json().passwordUsers).toEqual([{ id: contractor.id, email: 'cody@contractor.test', name: 'Cody' }])
    const log = await lastLog()
    expect(log).toMatchObject({
      action: 'SSO_PASSWORD_USERS_UPDATED',
      details: { companyId: 'co-strict', before: [], after: ['cody@contractor.test'] },
    })
    expect(log.actorEmail).toMatch(/^admin-/)
    expect((await api('GET', '/api/admin/companies/co-strict/sso')).json().passwordUsers).toHaveLength(1)

    const allowed = await login(contractor.email)
    expect(allowed.statusCode).toBe(200)
    expect(await lastLog()).toMatchObject({ action: 'LOGIN_SUCCESS', userId: contractor.id })

    const before = await sessions()
    const refused = await login(employee.email)
    expect(refused.statusCode).toBe(401)
    expect(refused.json().message).toBe(SSO_MESSAGES.ssoRequired('Strict Co'))
    expect(await sessions()).toBe(before)
    expect(await lastLog()).toMatchObject({
      action: 'LOGIN_FAILED',
      details: { method: 'password', reason: 'single sign-on required' },
    })
  })

  it('takes the password back when the contractor is removed from the list', async () => {
    await api('PUT', '/api/admin/companies/co-strict/sso/password-users', admin, { userIds: [] })
    expect(await lastLog()).toMatchObject({ details: { before: ['cody@contractor.test'], after: [] } })
    const res = await login(contractor.email)
    expect(res.statusCode).toBe(401)
    expect(res.json().message).toBe(SSO_MESSAGES.ssoRequired('Strict Co'))
  })

  it('refuses staff, another company’s user and unknown ids, naming the item, and changes nothing', async () => {
    const staff = await t.createUser('internal')
    const other = await t.createUser('client', { companyId: 'co-elsewhere' })
    const ids = [[staff.id], [contractor.id, other.id], ['00000000-0000-4000-8000-000000000000']]
    for (const userIds of ids) {
      const res = await api('PUT', '/api/admin/companies/co-strict/sso/password-users', admin, { userIds })
      expect(res.statusCode, JSON.stringify(userIds)).toBe(400)
      expect(res.json()).toMatchObject({
        code: 'VALIDATION_FAILED',
        message: 'Choose a user of this company (its own users, not staff).',
        details: [{ field: `userIds/${userIds.length - 1}` }],
      })
    }
    const unknown = await api('PUT', '/api/admin/companies/nope/sso/password-users', admin, { userIds: [] })
    expect(unknown.statusCode).toBe(404)
    expect(await t.database.db.select().from(ssoPasswordUser)).toEqual([])
  })

  it('is for admins only: sales, internal and client get 403, no token 401', async () => {
    for (const role of ['sales', 'internal', 'client'] as const) {
      // A client of another company: this company's own users cannot sign in with a password.
      const { headers } = await t.loginAs(role, { companyId: role === 'client' ? 'co-elsewhere' : null })
      const res = await api('PUT', '/api/admin/companies/co-strict/sso/password-users', headers, {
        userIds: [contractor.id],
      })
      expect(res.statusCode, role).toBe(403)
    }
    const none = await api('PUT', '/api/admin/companies/co-strict/sso/password-users', {}, { userIds: [] })
    expect(none.statusCode).toBe(401)
    expect(await t.database.db.select().from(ssoPasswordUser)).toEqual([])
  })
})

describe('testing a connection by signing in at the provider', () => {
  beforeAll(async () => {
    await api('PUT', '/api/admin/companies/co-tested/sso', admin, oidcBody(provider.issuer, 'portal'))
    await api('PUT', '/api/admin/companies/co-tested/sso/domains', admin, { domains: ['tested.test'] })
  })

  /** Starts a test as the admin's browser does: the provider's address and the flow cookie. */
  async function startTest(companyId: string, headers: object = admin) {
    const res = await api('POST', `/api/admin/companies/${companyId}/sso/test/start`, headers)
    expect(res.statusCode).toBe(200)
    const cookie = String(res.headers['set-cookie']).split(';')[0]!
    expect(cookie).toMatch(/^portal_sso_flow=/)
    return { location: res.json().location as string, cookie }
  }

  it('shows the admin what the provider sent (claims, no token), signing nobody in or creating anyone', async () => {
    const [beforeUsers, beforeSessions] = [await userCount(), await sessions()]
    const { location, cookie } = await startTest('co-tested')
    expect(new URL(location).origin).toBe(provider.issuer)
    const back = await signInAtProvider(location, 'tess@tested.test', CALLBACK)
    const done = await api('GET', `/api/auth/sso/callback?${new URL(back).search.slice(1)}`, { cookie })
    expect(done.statusCode).toBe(302)
    const match = /^\/admin\/companies\/co-tested\?sso_test=([0-9a-f-]{36})$/.exec(done.headers.location as string)
    expect(match).toBeTruthy()

    const result = await api('GET', `/api/admin/companies/co-tested/sso/test/${match![1]}`)
    expect(result.statusCode).toBe(200)
    const body = result.json()
    expect(body).toMatchObject({
      ok: true,
      protocol: 'oidc',
      email: 'tess@tested.test',
      name: 'Tess Tester',
      message: 'The provider signed you in and sent what is shown below. Nobody was signed in to the portal.',
      claims: { iss: provider.issuer, aud: 'portal', email: 'tess@tested.test', name: 'Tess Tester' },
    })
    expect(body.claims.nonce).toBeUndefined()
    expect(result.body).not.toMatch(/eyJ/)
    // A test signs nobody in: no user was created though the connection creates users.
    expect(await userCount()).toBe(beforeUsers)
    expect(await sessions()).toBe(beforeSessions)
    expect(await t.database.db.select().from(appUser).where(eq(appUser.email, 'tess@tested.test'))).toEqual([])

    // Only the admin who ran it sees it; another admin gets 404, other roles 403, no token 401.
    const other = (await t.loginAs('admin')).headers
    expect((await api('GET', `/api/admin/companies/co-tested/sso/test/${match![1]}`, other)).statusCode).toBe(404)
    expect((await api('GET', `/api/admin/companies/co-elsewhere/sso/test/${match![1]}`)).statusCode).toBe(404)
    const sales = (await t.loginAs('sales')).headers
    expect((await api('GET', `/api/admin/companies/co-tested/sso/test/${match![1]}`, sales)).statusCode).toBe(403)
    expect((await api('GET', `/api/admin/companies/co-tested/sso/test/${match![1]}`, {})).statusCode).toBe(401)
    // The flow was used up: the same answer cannot sign anyone in afterwards.
    const replay = await api('GET', `/api/auth/sso/callback?${new URL(back).search.slice(1)}`, { cookie })
    expect(replay.headers.location).toBe('/login?sso_error=expired')
  })

  it('shows a refused answer with its reason', async () => {
    await api('PUT', '/api/admin/companies/co-crafted/sso', admin, oidcBody(crafted.issuer, 'crafted-client'))
    const { location, cookie } = await startTest('co-crafted')
    const params = new URL(location).searchParams
    crafted.prepare({ email: 'x@crafted.test', nonce: params.get('nonce')!, claims: { aud: 'someone-else' } })
    const done = await api('GET', `/api/auth/sso/callback?code=abc&state=${params.get('state')}`, { cookie })
    const id = /sso_test=([0-9a-f-]{36})$/.exec(done.headers.location as string)![1]
    const result = (await api('GET', `/api/admin/companies/co-crafted/sso/test/${id}`)).json()
    expect(result).toMatchObject({ ok: false, claims: {}, email: null })
    expect(result.message).toMatch(/^The provider's answer was refused: id token or code refused: .*aud/)
  })

  it('starts only for admins, for a company with a connection', async () => {
    for (const role of ['sales', 'internal', 'client'] as const) {
      const { headers } = await t.loginAs(role, { companyId: role === 'client' ? 'co-tested' : null })
      expect((await api('POST', '/api/admin/companies/co-tested/sso/test/start', headers)).statusCode, role).toBe(403)
    }
    expect((await api('POST', '/api/admin/companies/co-tested/sso/test/start', {})).statusCode).toBe(401)
    const none = await api('POST', '/api/admin/companies/co-elsewhere/sso/test/start')
    expect(none.statusCode).toBe(404)
    expect(none.json().message).toBe(SSO_MESSAGES.notConfigured)
    await api('PUT', '/api/admin/companies/co-elsewhere/sso', admin, oidcBody('http://127.0.0.1:9', 'x'))
    const down = await api('POST', '/api/admin/companies/co-elsewhere/sso/test/start')
    expect(down.statusCode).toBe(502)
    expect(down.json().message).toMatch(/^The provider could not be reached/)
    expect((await api('GET', '/api/admin/companies/co-tested/sso/test/not-a-flow')).statusCode).toBe(404)
  })
})

describe('connection changes are audited with who made them', () => {
  it('records the admin for a save, domains, the password list and a removal', async () => {
    const { headers, user } = await t.loginAs('admin')
    const changes: [string, string, object | undefined, string][] = [
      ['PUT', '/sso', oidcBody(crafted.issuer, 'audit'), 'SSO_CONNECTION_SAVED'],
      ['PUT', '/sso/domains', { domains: ['elsewhere.test'] }, 'SSO_DOMAINS_UPDATED'],
      ['PUT', '/sso/password-users', { userIds: [] }, 'SSO_PASSWORD_USERS_UPDATED'],
      ['DELETE', '/sso', undefined, 'SSO_CONNECTION_REMOVED'],
    ]
    for (const [method, url, payload, action] of changes) {
      const res = await api(method as 'PUT', `/api/admin/companies/co-elsewhere${url}`, headers, payload)
      expect(res.statusCode, `${method} ${url}`).toBe(200)
      const log = await lastLog()
      expect(log, action).toMatchObject({ action, userId: user.id, actorEmail: user.email })
      expect(JSON.stringify(log.details)).not.toContain(SECRET)
    }
    expect(
      await t.database.db
        .select({ n: count() })
        .from(activityLog)
        .where(and(eq(activityLog.userId, user.id), eq(activityLog.action, 'SSO_CONNECTION_SAVED'))),
    ).toEqual([{ n: 1 }])
  })
})
