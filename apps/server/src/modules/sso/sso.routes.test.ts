import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { and, count, desc, eq } from 'drizzle-orm'
import { SSO_MESSAGES } from '@portal/shared'
import { activityLog, appUser, authSession, ssoConnection, ssoDomain, ssoFlow } from '../../db/schema'
import { buildTestApp, TEST_PASSWORD, type TestContext } from '../../test/helpers'
import { startOidcProvider, type RunningProvider } from './oidc-provider'
import { signInAtProvider, startCraftedProvider } from './sso.test-support'

const CALLBACK = 'http://portal.example.test/api/auth/sso/callback'
const SECRET = 'client-secret-value-9931'

let t: TestContext
let admin: { 'x-auth-token': string }
let provider: RunningProvider
let crafted: Awaited<ReturnType<typeof startCraftedProvider>>

beforeAll(async () => {
  t = await buildTestApp()
  admin = (await t.loginAs('admin')).headers
  await t.createCompany('co-real', 'Real Provider Co')
  await t.createCompany('co-crafted', 'Crafted Co')
  await t.createCompany('co-other', 'Other Co')
  provider = await startOidcProvider({
    port: 0,
    clients: [
      {
        clientId: 'portal',
        clientSecret: SECRET,
        redirectUris: [CALLBACK],
        postLogoutRedirectUris: ['http://portal.example.test/login'],
      },
    ],
    accounts: [
      { email: 'rita@real.test', name: 'Rita Real' },
      { email: 'newbie@real.test', name: 'New Person' },
    ],
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
const connectionBody = (issuer: string, clientId: string, extra: object = {}) => ({
  protocol: 'oidc',
  issuer,
  clientId,
  clientSecret: SECRET,
  ssoRequired: false,
  createUsers: false,
  ...extra,
})
const lastLog = async () => (await t.database.db.select().from(activityLog).orderBy(desc(activityLog.id)).limit(1))[0]!
const sessions = async () => (await t.database.db.select({ n: count() }).from(authSession))[0]!.n
const userCount = async () => (await t.database.db.select({ n: count() }).from(appUser))[0]!.n

/** Starts a flow as a browser would: the provider's address and the flow cookie. */
async function start(companyId: string) {
  const res = await api('GET', `/api/auth/sso/${companyId}/start`, {})
  expect(res.statusCode).toBe(302)
  const cookie = String(res.headers['set-cookie']).split(';')[0]!
  return { location: res.headers.location as string, cookie }
}
const callback = (query: string, cookie?: string) =>
  api('GET', `/api/auth/sso/callback?${query}`, cookie ? { cookie } : {})

describe('access', () => {
  it('lets admins manage a connection; sales, internal and client get 403; no token 401', async () => {
    const routes = [
      ['GET', '/sso'],
      ['PUT', '/sso'],
      ['DELETE', '/sso'],
      ['PUT', '/sso/domains'],
      ['POST', '/sso/test'],
      ['PUT', '/sso/password-users'],
      ['POST', '/sso/test/start'],
      ['GET', '/sso/test/00000000-0000-4000-8000-000000000000'],
    ] as const
    for (const role of ['sales', 'internal', 'client'] as const) {
      const { headers } = await t.loginAs(role, { companyId: role === 'client' ? 'co-other' : null })
      for (const [method, url] of routes) {
        const res = await api(method, `/api/admin/companies/co-other${url}`, headers, { domains: ['x.test'] })
        expect(res.statusCode, `${role} ${method} ${url}`).toBe(403)
      }
    }
    for (const [method, url] of routes) {
      expect((await api(method, `/api/admin/companies/co-other${url}`, {})).statusCode).toBe(401)
    }
    expect((await api('GET', '/api/admin/companies/co-other/sso')).json()).toEqual({
      connection: null,
      domains: [],
      passwordUsers: [],
      redirectUri: CALLBACK,
      saml: {
        entityId: 'http://portal.example.test/api/auth/sso/saml/co-other',
        acsUrl: 'http://portal.example.test/api/auth/sso/saml/co-other/acs',
        metadataUrl: 'http://portal.example.test/api/auth/sso/saml/co-other/metadata',
      },
    })
    expect(await t.database.db.select().from(ssoDomain)).toEqual([])
  })

  it('answers the public routes without a token', async () => {
    expect((await api('GET', '/api/auth/sso/lookup?email=a@nowhere.test', {})).json()).toEqual({
      sso: false,
      companyId: null,
      companyName: null,
      startPath: null,
    })
    expect((await api('GET', '/api/auth/sso/demo', {})).json()).toMatchObject({ accounts: [] })
    const exchange = await api('POST', '/api/auth/sso/exchange', {}, { code: 'not-a-code' })
    expect(exchange.statusCode).toBe(401)
  })
})

describe('connections and domains', () => {
  it('saves a connection with a write-only secret, encrypted at rest, audited with the admin', async () => {
    const res = await api('PUT', '/api/admin/companies/co-real/sso', admin, connectionBody(provider.issuer, 'portal'))
    expect(res.statusCode).toBe(200)
    expect(res.body).not.toContain(SECRET)
    expect(res.json().connection).toMatchObject({
      protocol: 'oidc',
      oidc: { issuer: provider.issuer, clientId: 'portal', clientSecretSet: true, scopes: 'openid email profile' },
    })
    const [row] = await t.database.db.select().from(ssoConnection).where(eq(ssoConnection.companyId, 'co-real'))
    expect(row!.oidcClientSecret).toMatch(/^v1\./)
    expect(row!.oidcClientSecret).not.toContain(SECRET)
    const log = await lastLog()
    expect(log).toMatchObject({ action: 'SSO_CONNECTION_SAVED', details: { companyId: 'co-real', created: true } })
    expect(log.actorEmail).toMatch(/^admin-/)
    expect(JSON.stringify(log.details)).not.toContain(SECRET)
    // Saved again without a secret: the stored one stays.
    await api('PUT', '/api/admin/companies/co-real/sso', admin, {
      ...connectionBody(provider.issuer, 'portal', { createUsers: true }),
      clientSecret: undefined,
    })
    const [kept] = await t.database.db.select().from(ssoConnection).where(eq(ssoConnection.companyId, 'co-real'))
    expect(kept!.oidcClientSecret).toBe(row!.oidcClientSecret)
  })

  it('refuses an http issuer off this machine and an unknown company, changing nothing', async () => {
    const bad = await api(
      'PUT',
      '/api/admin/companies/co-other/sso',
      admin,
      connectionBody('http://idp.example.com', 'x'),
    )
    expect(bad.statusCode).toBe(400)
    expect(bad.json().message).toBe(SSO_MESSAGES.issuerInvalid)
    const missing = await api('PUT', '/api/admin/companies/nope/sso', admin, connectionBody(provider.issuer, 'x'))
    expect(missing.statusCode).toBe(404)
    expect(await t.database.db.select().from(ssoConnection).where(eq(ssoConnection.companyId, 'co-other'))).toEqual([])
  })

  it('assigns domains, one company per domain: another company asking gets 409 and nothing changes', async () => {
    const res = await api('PUT', '/api/admin/companies/co-real/sso/domains', admin, {
      domains: ['Real.test', '@real.test', 'sub.real.test'],
    })
    expect(res.statusCode).toBe(200)
    expect(res.json().domains).toEqual(['real.test', 'sub.real.test'])
    expect(await lastLog()).toMatchObject({
      action: 'SSO_DOMAINS_UPDATED',
      details: { after: ['real.test', 'sub.real.test'] },
    })
    const taken = await api('PUT', '/api/admin/companies/co-other/sso/domains', admin, {
      domains: ['other.test', 'real.test'],
    })
    expect(taken.statusCode).toBe(409)
    expect(taken.json().message).toBe(
      'The domain real.test already belongs to Real Provider Co. A domain can belong to one company only.',
    )
    const invalid = await api('PUT', '/api/admin/companies/co-other/sso/domains', admin, { domains: ['not a domain'] })
    expect(invalid.statusCode).toBe(400)
    expect(await t.database.db.select().from(ssoDomain).where(eq(ssoDomain.companyId, 'co-other'))).toEqual([])
    await api('PUT', '/api/admin/companies/co-other/sso/domains', admin, { domains: ['other.test'] })
  })

  it('tells the sign-in screen only whether a domain signs in through its company', async () => {
    const res = await api('GET', '/api/auth/sso/lookup?email=someone@REAL.test', {})
    expect(res.json()).toEqual({
      sso: true,
      companyId: 'co-real',
      companyName: 'Real Provider Co',
      startPath: '/api/auth/sso/co-real/start',
    })
    // A domain without a connection offers nothing.
    expect((await api('GET', '/api/auth/sso/lookup?email=x@other.test', {})).json().sso).toBe(false)
  })

  it('tests a connection by discovery and shows what the provider publishes', async () => {
    const res = await api('POST', '/api/admin/companies/co-real/sso/test')
    expect(res.json()).toMatchObject({
      ok: true,
      issuer: provider.issuer,
      authorizationEndpoint: `${provider.issuer}/auth`,
      jwksUri: `${provider.issuer}/jwks`,
      endSessionEndpoint: `${provider.issuer}/session/end`,
    })
    await api('PUT', '/api/admin/companies/co-other/sso', admin, connectionBody('http://127.0.0.1:9', 'x'))
    const down = await api('POST', '/api/admin/companies/co-other/sso/test')
    expect(down.json()).toMatchObject({
      ok: false,
      message: expect.stringContaining('Discovery at http://127.0.0.1:9 failed'),
    })
    expect((await api('DELETE', '/api/admin/companies/co-other/sso')).statusCode).toBe(200)
    expect(await lastLog()).toMatchObject({ action: 'SSO_CONNECTION_REMOVED', details: { companyId: 'co-other' } })
    expect((await api('POST', '/api/admin/companies/co-other/sso/test')).statusCode).toBe(404)
  })
})

describe('the sign-in flow through a real oidc-provider', () => {
  it('signs in an existing client user and issues the portal tokens through a one-time code', async () => {
    const rita = await t.createUser('client', { companyId: 'co-real', email: 'rita@real.test' })
    const { location, cookie } = await start('co-real')
    const auth = new URL(location)
    expect(auth.origin).toBe(provider.issuer)
    expect(auth.searchParams.get('code_challenge_method')).toBe('S256')
    expect(auth.searchParams.get('state')).toBeTruthy()
    expect(auth.searchParams.get('nonce')).toBeTruthy()
    expect(cookie).toMatch(/^portal_sso_flow=/)

    const back = await signInAtProvider(location, 'rita@real.test', CALLBACK)
    const done = await callback(new URL(back).search.slice(1), cookie)
    expect(done.statusCode).toBe(302)
    const code = /^\/login#sso_code=([\w-]+)$/.exec(done.headers.location as string)?.[1]
    expect(code).toBeTruthy()

    const session = await api('POST', '/api/auth/sso/exchange', {}, { code })
    expect(session.statusCode).toBe(200)
    expect(session.json().user).toMatchObject({ id: rita.id, role: 'client', companyId: 'co-real' })
    const me = await api('GET', '/api/auth/me', { 'x-auth-token': session.json().accessToken })
    expect(me.json().email).toBe('rita@real.test')
    expect(await lastLog()).toMatchObject({
      action: 'LOGIN_SUCCESS',
      userId: rita.id,
      details: { method: 'oidc', companyId: 'co-real' },
    })
    // The code is spent, and the callback cannot be replayed.
    expect((await api('POST', '/api/auth/sso/exchange', {}, { code })).statusCode).toBe(401)
    const replay = await callback(new URL(back).search.slice(1), cookie)
    expect(replay.headers.location).toBe('/login?sso_error=expired')

    // Sign-out ends the portal session and offers the provider's end-session address.
    const out = await api('POST', '/api/auth/sso/logout', {}, { refreshToken: session.json().refreshToken })
    expect(out.json().endSessionUrl).toMatch(new RegExp(`^${provider.issuer}/session/end\\?`))
    expect(new URL(out.json().endSessionUrl).searchParams.get('post_logout_redirect_uri')).toBe(
      'http://portal.example.test/login',
    )
    const refreshed = await api('POST', '/api/auth/refresh-token', {}, { refreshToken: session.json().refreshToken })
    expect(refreshed.statusCode).toBe(401)
  })

  it('creates an unknown user as a client of the company when the rule allows', async () => {
    const { location, cookie } = await start('co-real')
    const back = await signInAtProvider(location, 'newbie@real.test', CALLBACK)
    const done = await callback(new URL(back).search.slice(1), cookie)
    const code = /sso_code=([\w-]+)/.exec(done.headers.location as string)![1]
    const session = (await api('POST', '/api/auth/sso/exchange', {}, { code })).json()
    expect(session.user).toMatchObject({
      email: 'newbie@real.test',
      name: 'New Person',
      role: 'client',
      companyId: 'co-real',
    })
  })
})

describe('refusals: each logged, none signs anyone in or creates anyone', () => {
  let companyUser: { id: string }
  beforeAll(async () => {
    await api('PUT', '/api/admin/companies/co-crafted/sso', admin, connectionBody(crafted.issuer, 'crafted-client'))
    await api('PUT', '/api/admin/companies/co-crafted/sso/domains', admin, { domains: ['crafted.test'] })
    companyUser = await t.createUser('client', { companyId: 'co-crafted', email: 'carla@crafted.test' })
  })

  /** Starts a flow, lets the crafted provider answer with `token`, returns the callback's answer. */
  async function attempt(
    token: Parameters<typeof crafted.prepare>[0] extends infer T ? Partial<T> : never,
    query?: (state: string) => string,
  ) {
    const { location, cookie } = await start('co-crafted')
    const params = new URL(location).searchParams
    crafted.prepare({ email: 'carla@crafted.test', nonce: params.get('nonce')!, ...token })
    return callback(query ? query(params.get('state')!) : `code=abc&state=${params.get('state')}`, cookie)
  }

  async function expectRefused(run: () => Promise<{ headers: Record<string, unknown> }>, code: string, reason: RegExp) {
    const [beforeSessions, beforeUsers] = [await sessions(), await userCount()]
    const res = await run()
    expect(res.headers.location).toBe(`/login?sso_error=${code}`)
    const log = await lastLog()
    expect(log.action).toBe('LOGIN_FAILED')
    expect(log.details).toMatchObject({ method: 'oidc' })
    expect(String((log.details as { reason: string }).reason)).toMatch(reason)
    expect(JSON.stringify(log.details)).not.toMatch(/eyJ/) // no token in the log
    expect(await sessions()).toBe(beforeSessions)
    expect(await userCount()).toBe(beforeUsers)
  }

  it('accepts the crafted provider’s right token (the cases below differ in one thing only)', async () => {
    const res = await attempt({})
    expect(res.headers.location).toMatch(/^\/login#sso_code=/)
  })

  it.each([
    ['a wrong aud', { claims: { aud: 'someone-else' } }, /aud/],
    ['a wrong iss', { claims: { iss: 'http://127.0.0.1:1' } }, /iss/],
    ['a wrong nonce', { nonce: 'not-the-flow-nonce' }, /nonce/],
    ['alg none', { alg: 'none' as const }, /refused/],
    ['a key the provider does not publish', { foreignKey: true }, /refused/],
    ['an expired token', { claims: { exp: Math.floor(Date.now() / 1000) - 3600 } }, /exp/],
  ])('refuses an ID token with %s', async (_label, token, reason) => {
    await expectRefused(() => attempt(token), 'failed', reason)
  })

  it('refuses a mismatched state, a callback without a started flow, and an expired flow', async () => {
    await expectRefused(() => attempt({}, () => 'code=abc&state=forged'), 'failed', /state mismatch/)
    await expectRefused(() => callback('code=abc&state=whatever'), 'failed', /without a started flow/)
    await expectRefused(
      async () => {
        const { location, cookie } = await start('co-crafted')
        const state = new URL(location).searchParams.get('state')!
        await t.database.db
          .update(ssoFlow)
          .set({ expiresAt: new Date(Date.now() - 1000) })
          .where(eq(ssoFlow.state, state))
        return callback(`code=abc&state=${state}`, cookie)
      },
      'expired',
      /flow expired/,
    )
  })

  it('refuses an e-mail of another company’s domain, an unknown user, a suspended user and staff', async () => {
    await api('PUT', '/api/admin/companies/co-real/sso/domains', admin, { domains: ['real.test'] })
    await expectRefused(() => attempt({ email: 'rita@real.test' }), 'other_company', /another company/)
    await expectRefused(() => attempt({ email: 'stranger@crafted.test' }), 'unknown_user', /unknown user/)
    await t.database.db.update(appUser).set({ status: 'suspended' }).where(eq(appUser.id, companyUser.id))
    await expectRefused(() => attempt({}), 'suspended', /suspended/)
    await t.database.db.update(appUser).set({ status: 'active' }).where(eq(appUser.id, companyUser.id))
    const staff = await t.createUser('admin', { email: 'boss@crafted.test' })
    await expectRefused(() => attempt({ email: staff.email }), 'not_member', /not a client user/)
  })
})

describe('single sign-on required', () => {
  it('refuses a password sign-in of the company’s client users with how to sign in; staff are unaffected', async () => {
    await t.createCompany('co-strict', 'Strict Co')
    await api(
      'PUT',
      '/api/admin/companies/co-strict/sso',
      admin,
      connectionBody(crafted.issuer, 'c', { ssoRequired: true }),
    )
    const user = await t.createUser('client', { companyId: 'co-strict', email: 'sam@strict.test' })
    const before = await sessions()
    const res = await api('POST', '/api/auth/login', {}, { email: user.email, password: TEST_PASSWORD })
    expect(res.statusCode).toBe(401)
    expect(res.json().message).toBe(SSO_MESSAGES.ssoRequired('Strict Co'))
    expect(await sessions()).toBe(before)
    const log = await lastLog()
    expect(log).toMatchObject({
      action: 'LOGIN_FAILED',
      details: { method: 'password', reason: 'single sign-on required' },
    })
    // A wrong password still gets the usual answer: the rule reveals nothing to a guesser.
    const wrong = await api('POST', '/api/auth/login', {}, { email: user.email, password: 'wrong-password-123' })
    expect(wrong.json().message).toBe('Invalid email or password.')
    // Another company's client and staff sign in with their password as before.
    const other = await t.createUser('client', { companyId: 'co-other' })
    expect((await api('POST', '/api/auth/login', {}, { email: other.email, password: TEST_PASSWORD })).statusCode).toBe(
      200,
    )
    const staff = await t.createUser('internal')
    expect((await api('POST', '/api/auth/login', {}, { email: staff.email, password: TEST_PASSWORD })).statusCode).toBe(
      200,
    )
    expect(
      await t.database.db
        .select()
        .from(activityLog)
        .where(and(eq(activityLog.userId, user.id), eq(activityLog.action, 'LOGIN_SUCCESS'))),
    ).toEqual([])
  })
})
