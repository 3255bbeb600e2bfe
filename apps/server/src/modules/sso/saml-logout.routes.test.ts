import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { desc, eq } from 'drizzle-orm'
import { activityLog, ssoFlow } from '../../db/schema'
import { buildTestApp, type TestContext } from '../../test/helpers'
import { startSamlIdp } from './saml.test-support'

const PORTAL = 'http://portal.example.test'
const SP = `${PORTAL}/api/auth/sso/saml/co-slo`
const ACS = `${SP}/acs`
const SLO = `${SP}/slo`

let t: TestContext
let admin: { 'x-auth-token': string }
let idp: Awaited<ReturnType<typeof startSamlIdp>>

beforeAll(async () => {
  t = await buildTestApp()
  admin = (await t.loginAs('admin')).headers
  await t.createCompany('co-slo', 'Slo Co')
  idp = await startSamlIdp({ singleLogout: true })
  await t.createUser('client', { companyId: 'co-slo', email: 'sam@slo.test' })
})
afterAll(async () => {
  await t.close()
  await idp.close()
})

const api = (method: 'GET' | 'PUT' | 'POST', url: string, headers: object = admin, payload?: object) =>
  t.app.inject({ method, url, headers: headers as Record<string, string>, ...(payload ? { payload } : {}) })
const saveConnection = (metadataXml: string) =>
  api('PUT', '/api/admin/companies/co-slo/sso', admin, {
    protocol: 'saml',
    ssoRequired: false,
    createUsers: false,
    metadataXml,
  })
const postSlo = (samlResponse: string, companyId = 'co-slo') =>
  t.app.inject({
    method: 'POST',
    url: `/api/auth/sso/saml/${companyId}/slo`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ SAMLResponse: samlResponse }).toString(),
  })
const lastLog = async () => (await t.database.db.select().from(activityLog).orderBy(desc(activityLog.id)).limit(1))[0]!

/**
 * A refused LogoutResponse: the browser goes to the sign-in page, which says the provider did not
 * confirm its sign-out (SSO_ERRORS.logout_failed); the server log names the failed check.
 */
async function expectRefused(samlResponse: string, reason: RegExp, companyId = 'co-slo') {
  const warn = vi.spyOn(t.app.log, 'warn')
  try {
    const res = await postSlo(samlResponse, companyId)
    expect(res.statusCode, String(reason)).toBe(303)
    expect(res.headers.location).toBe('/login?sso_error=logout_failed')
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ reason: expect.stringMatching(reason) }),
      'SAML LogoutResponse refused',
    )
  } finally {
    warn.mockRestore()
  }
}

/** A SAML sign-in of sam@slo.test through a started flow, with this SessionIndex: the portal's tokens. */
async function signIn(sessionIndex: string) {
  expect((await api('GET', '/api/auth/sso/co-slo/start', {})).statusCode).toBe(302)
  const [flow] = await t.database.db.select().from(ssoFlow).orderBy(desc(ssoFlow.createdAt)).limit(1)
  const response = idp.makeResponse({
    email: 'sam@slo.test',
    inResponseTo: flow!.state,
    acsUrl: ACS,
    audience: SP,
    sessionIndex,
  })
  const done = await t.app.inject({
    method: 'POST',
    url: '/api/auth/sso/saml/co-slo/acs',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ SAMLResponse: response }).toString(),
  })
  const code = /^\/login#sso_code=([\w-]+)$/.exec(done.headers.location as string)![1]
  const session = await api('POST', '/api/auth/sso/exchange', {}, { code })
  expect(session.statusCode).toBe(200)
  return session.json() as { refreshToken: string }
}

/** Signs out: the provider's address (or null). */
async function signOut(refreshToken: string) {
  const res = await api('POST', '/api/auth/sso/logout', {}, { refreshToken })
  expect(res.statusCode).toBe(200)
  expect(res.json().message).toBe('Signed out')
  // The portal session is over whatever the provider does.
  const refresh = await api('POST', '/api/auth/refresh-token', {}, { refreshToken })
  expect(refresh.statusCode).toBe(401)
  return res.json().endSessionUrl as string | null
}

describe('SAML single logout', () => {
  it('lists the single logout service in the SP metadata', async () => {
    const res = await api('GET', '/api/auth/sso/saml/co-slo/metadata', {})
    expect(res.body).toMatch(/<SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"/)
    expect(res.body).toContain(`Location="${SLO}"`)
  })

  it('without single logout in the IdP metadata, sign-out ends the portal session only', async () => {
    const plain = idp.metadataXml.replace(/\s*<md:SingleLogoutService[^>]*\/>/, '')
    expect(plain).not.toContain('SingleLogoutService')
    expect((await saveConnection(plain)).statusCode).toBe(200)
    const { refreshToken } = await signIn('_session-plain')
    expect(await signOut(refreshToken)).toBeNull()
    expect((await lastLog()).details).toEqual({ message: 'User signed out' })
  })

  it("sends the browser to the IdP's logout address naming the user's NameID and SessionIndex; audited", async () => {
    expect((await saveConnection(idp.metadataXml)).statusCode).toBe(200)
    const { refreshToken } = await signIn('_session-one')
    const address = await signOut(refreshToken)
    expect(address?.startsWith(`${idp.entityId}/slo?SAMLRequest=`)).toBe(true)
    const request = await idp.readLogoutRequest(address!)
    expect(request).toMatchObject({
      issuer: SP,
      nameID: 'sam@slo.test',
      nameIDFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
      sessionIndex: '_session-one',
    })
    expect(await lastLog()).toMatchObject({
      action: 'LOGOUT',
      details: { message: 'User signed out', method: 'saml', providerLogout: 'requested' },
    })

    // The IdP's signed answer sends the browser to the sign-in page, once.
    const answer = idp.makeLogoutResponse({ inResponseTo: request.ID!, destination: SLO })
    const back = await postSlo(answer)
    expect(back.statusCode).toBe(303)
    expect(back.headers.location).toBe('/login')
    await expectRefused(answer, /sign-out answer already used/)
  })

  it('refuses a LogoutResponse that is unsigned, wrongly signed, unknown, misdirected or failed, saying why', async () => {
    const { refreshToken } = await signIn('_session-two')
    const request = await idp.readLogoutRequest((await signOut(refreshToken))!)
    const good = { inResponseTo: request.ID!, destination: SLO }
    const cases: [string, RegExp][] = [
      [idp.makeLogoutResponse({ ...good, signature: 'other' }), /^invalid signature$/],
      [idp.makeLogoutResponse({ ...good, signature: 'none' }), /^invalid signature$/],
      [idp.makeLogoutResponse({ ...good, inResponseTo: '_never-sent' }), /^unknown InResponseTo$/],
      [idp.makeLogoutResponse({ ...good, destination: 'https://evil.example/slo' }), /wrong destination/],
      [idp.makeLogoutResponse({ ...good, issuer: 'https://other-idp.example' }), /issuer/i],
      [
        idp.makeLogoutResponse({ ...good, status: 'urn:oasis:names:tc:SAML:2.0:status:Responder' }),
        /did not end its session/,
      ],
      [Buffer.from('<!DOCTYPE r [<!ENTITY e "x">]><r/>').toString('base64'), /DOCTYPE/],
      // A signed sign-in response is not a LogoutResponse.
      [
        idp.makeResponse({ email: 'sam@slo.test', inResponseTo: null, acsUrl: ACS, audience: SP }),
        /not a LogoutResponse/,
      ],
    ]
    for (const [answer, reason] of cases) await expectRefused(answer, reason)
    // None of them used the request up: the good answer still goes through.
    expect((await postSlo(idp.makeLogoutResponse(good))).headers.location).toBe('/login')
    expect(await t.database.db.select().from(ssoFlow).where(eq(ssoFlow.state, request.ID!))).toMatchObject([
      { purpose: 'logout', consumedAt: expect.any(Date) },
    ])
  })

  it('refuses a LogoutResponse for a company without a SAML connection', async () => {
    await expectRefused(
      idp.makeLogoutResponse({ inResponseTo: '_x', destination: SLO }),
      /no SAML connection/,
      'co-none',
    )
  })

  it('a logout request id does not answer a sign-in', async () => {
    const { refreshToken } = await signIn('_session-three')
    const request = await idp.readLogoutRequest((await signOut(refreshToken))!)
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sso/saml/co-slo/acs',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        SAMLResponse: idp.makeResponse({ email: 'sam@slo.test', inResponseTo: request.ID!, acsUrl: ACS, audience: SP }),
      }).toString(),
    })
    expect(res.headers.location).toBe('/login?sso_error=failed')
  })
})
