import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { count, desc, eq } from 'drizzle-orm'
import { activityLog, appUser, authSession, ssoAssertion, ssoConnection, ssoFlow } from '../../db/schema'
import { buildTestApp, type TestContext } from '../../test/helpers'
import { startSamlIdp, type ResponseOptions } from './saml.test-support'

const PORTAL = 'http://portal.example.test'
const SP = `${PORTAL}/api/auth/sso/saml/co-saml`
const ACS = `${SP}/acs`

let t: TestContext
let admin: { 'x-auth-token': string }
let idp: Awaited<ReturnType<typeof startSamlIdp>>

beforeAll(async () => {
  t = await buildTestApp()
  admin = (await t.loginAs('admin')).headers
  await t.createCompany('co-saml', 'Saml Co')
  await t.createCompany('co-neighbour', 'Neighbour Co')
  idp = await startSamlIdp()
})
afterAll(async () => {
  await t.close()
  await idp.close()
})

const api = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, headers: object = admin, payload?: object) =>
  t.app.inject({ method, url, headers: headers as Record<string, string>, ...(payload ? { payload } : {}) })
const samlBody = (extra: object = {}) => ({
  protocol: 'saml',
  ssoRequired: false,
  createUsers: false,
  metadataXml: idp.metadataXml,
  ...extra,
})
const postAcs = (samlResponse: string, companyId = 'co-saml') =>
  t.app.inject({
    method: 'POST',
    url: `/api/auth/sso/saml/${companyId}/acs`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ SAMLResponse: samlResponse }).toString(),
  })
const lastLog = async () => (await t.database.db.select().from(activityLog).orderBy(desc(activityLog.id)).limit(1))[0]!
const sessions = async () => (await t.database.db.select({ n: count() }).from(authSession))[0]!.n
const userCount = async () => (await t.database.db.select({ n: count() }).from(appUser))[0]!.n

/** Starts a sign-in as a browser would; the AuthnRequest's id the identity provider answers to. */
async function startFlow() {
  const res = await api('GET', '/api/auth/sso/co-saml/start', {})
  expect(res.statusCode).toBe(302)
  const location = new URL(res.headers.location as string)
  expect(`${location.origin}${location.pathname}`).toBe(`${idp.entityId}/sso`)
  const [flow] = await t.database.db.select().from(ssoFlow).orderBy(desc(ssoFlow.createdAt)).limit(1)
  return { location: location.toString(), requestId: flow!.state }
}

describe('a SAML connection', () => {
  it('lets only admins save one; sales, internal and client get 403, no token 401', async () => {
    for (const role of ['sales', 'internal', 'client'] as const) {
      const { headers } = await t.loginAs(role, { companyId: role === 'client' ? 'co-saml' : null })
      expect((await api('PUT', '/api/admin/companies/co-saml/sso', headers, samlBody())).statusCode).toBe(403)
    }
    expect((await api('PUT', '/api/admin/companies/co-saml/sso', {}, samlBody())).statusCode).toBe(401)
    expect(await t.database.db.select().from(ssoConnection)).toEqual([])
  })

  it('refuses metadata that is not usable, naming the problem, and saves nothing', async () => {
    const cases: [object, RegExp][] = [
      [{ metadataXml: 'not xml at all <' }, /identity provider|well-formed/],
      [{ metadataXml: `<!DOCTYPE x [<!ENTITY e "boom">]>${idp.metadataXml.replace(/^<\?xml[^>]*>/, '')}` }, /DOCTYPE/],
      [
        { metadataXml: idp.metadataXml.replace(/<md:KeyDescriptor[\s\S]*?<\/md:KeyDescriptor>/, '') },
        /no signing certificate/,
      ],
      [{ metadataXml: undefined }, /metadata XML or give its metadata URL/],
      [{ metadataXml: undefined, metadataUrl: 'http://idp.example.com/metadata' }, /https/],
      [{ metadataXml: undefined, metadataUrl: `${idp.entityId}/missing` }, /answered 404/],
    ]
    for (const [extra, message] of cases) {
      const res = await api('PUT', '/api/admin/companies/co-saml/sso', admin, samlBody(extra))
      expect(res.statusCode, JSON.stringify(extra)).toBe(400)
      expect(res.json().message).toMatch(message)
    }
    expect(await t.database.db.select().from(ssoConnection)).toEqual([])
  })

  it('reads pasted metadata: the IdP entity id, sign-in address and certificate expiry; audited', async () => {
    const res = await api('PUT', '/api/admin/companies/co-saml/sso', admin, samlBody())
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(body.connection).toMatchObject({
      protocol: 'saml',
      oidc: null,
      saml: { metadataUrl: null, idpEntityId: idp.entityId, ssoUrl: `${idp.entityId}/sso`, allowUnsolicited: false },
    })
    expect(body.connection.saml.certificates).toEqual([
      { subject: 'CN=Test IdP idp', notAfter: expect.stringMatching(/^20\d\d-/) },
    ])
    expect(body.saml).toEqual({ entityId: SP, acsUrl: ACS, metadataUrl: `${SP}/metadata` })
    expect(await lastLog()).toMatchObject({
      action: 'SSO_CONNECTION_SAVED',
      details: { companyId: 'co-saml', created: true, after: { protocol: 'saml' } },
    })
  })

  it('fetches metadata from a URL on save', async () => {
    const res = await api(
      'PUT',
      '/api/admin/companies/co-saml/sso',
      admin,
      samlBody({ metadataXml: undefined, metadataUrl: idp.metadataUrl }),
    )
    expect(res.statusCode).toBe(200)
    expect(res.json().connection.saml).toMatchObject({ metadataUrl: idp.metadataUrl, idpEntityId: idp.entityId })
    await api('PUT', '/api/admin/companies/co-saml/sso/domains', admin, { domains: ['saml.test'] })
    await api('PUT', '/api/admin/companies/co-neighbour/sso/domains', admin, { domains: ['neighbour.test'] })
  })

  it('offers the SP metadata for download, to anyone (the IdP fetches it); an unknown company is 404', async () => {
    const res = await api('GET', '/api/auth/sso/saml/co-saml/metadata', {})
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^application\/samlmetadata\+xml/)
    expect(res.headers['content-disposition']).toBe('attachment; filename="sp-metadata-co-saml.xml"')
    expect(res.body).toContain(`entityID="${SP}"`)
    expect(res.body).toContain(`Location="${ACS}"`)
    expect(res.body).toContain('WantAssertionsSigned="true"')
    expect((await api('GET', '/api/auth/sso/saml/nope/metadata', {})).statusCode).toBe(404)
  })

  it('tests the connection: the metadata is valid, with the IdP entity id, address and certificate expiry', async () => {
    const res = await api('POST', '/api/admin/companies/co-saml/sso/test')
    expect(res.json()).toMatchObject({
      ok: true,
      idpEntityId: idp.entityId,
      ssoUrl: `${idp.entityId}/sso`,
      certificates: [{ subject: 'CN=Test IdP idp', notAfter: expect.any(String) }],
    })
  })
})

describe('signing in through the test identity provider', () => {
  it('sends an AuthnRequest, accepts the signed answer and hands over the portal session', async () => {
    const user = await t.createUser('client', { companyId: 'co-saml', email: 'sara@saml.test' })
    const { location, requestId } = await startFlow()
    expect(requestId).toMatch(/^_[0-9a-f]{40}$/)
    idp.signInAs({ email: 'sara@saml.test', name: 'Sara Saml' }, SP)
    // The identity provider's page: an auto-posting form to the ACS, as a browser gets it.
    const page = await (await fetch(location)).text()
    expect(page).toContain(`action="${ACS}"`)
    const samlResponse = /name="SAMLResponse" value="([^"]+)"/.exec(page)![1]!
    expect(Buffer.from(samlResponse, 'base64').toString()).toContain(`InResponseTo="${requestId}"`)

    const done = await postAcs(samlResponse)
    expect(done.statusCode).toBe(303)
    const code = /^\/login#sso_code=([\w-]+)$/.exec(done.headers.location as string)?.[1]
    expect(code).toBeTruthy()
    const session = await api('POST', '/api/auth/sso/exchange', {}, { code })
    expect(session.statusCode).toBe(200)
    expect(session.json().user).toMatchObject({ id: user.id, role: 'client', companyId: 'co-saml' })
    expect(await lastLog()).toMatchObject({
      action: 'LOGIN_SUCCESS',
      userId: user.id,
      details: { method: 'saml', companyId: 'co-saml' },
    })
    // The same response again is a replay, refused.
    const again = await postAcs(samlResponse)
    expect(again.headers.location).toBe('/login?sso_error=expired')
    expect(await lastLog()).toMatchObject({
      action: 'LOGIN_FAILED',
      details: { method: 'saml', reason: 'assertion replayed' },
    })
  })
})

describe('testing the connection by signing in at the identity provider', () => {
  it('shows the admin the attributes the identity provider sent, signing nobody in', async () => {
    const start = await api('POST', '/api/admin/companies/co-saml/sso/test/start')
    expect(start.statusCode).toBe(200)
    const location = start.json().location as string
    expect(location.startsWith(`${idp.entityId}/sso?SAMLRequest=`)).toBe(true)
    idp.signInAs({ email: 'tina@saml.test', name: 'Tina Test' }, SP)
    const page = await (await fetch(location)).text()
    const beforeUsers = await userCount()
    const done = await postAcs(/name="SAMLResponse" value="([^"]+)"/.exec(page)![1]!)
    expect(done.statusCode).toBe(303)
    const id = /^\/admin\/companies\/co-saml\?sso_test=([0-9a-f-]{36})$/.exec(done.headers.location as string)?.[1]
    expect(id).toBeTruthy()
    const result = await api('GET', `/api/admin/companies/co-saml/sso/test/${id}`)
    expect(result.json()).toMatchObject({
      ok: true,
      protocol: 'saml',
      email: 'tina@saml.test',
      name: 'Tina Test',
      claims: { email: 'tina@saml.test', nameID: 'tina@saml.test' },
    })
    expect(result.body).not.toMatch(/Signature|PHNhbWxw/)
    expect(await userCount()).toBe(beforeUsers)
    expect(await t.database.db.select().from(appUser).where(eq(appUser.email, 'tina@saml.test'))).toEqual([])
  })
  it('shows the admin a refused test response with its reason, logging the refusal', async () => {
    expect((await api('POST', '/api/admin/companies/co-saml/sso/test/start')).statusCode).toBe(200)
    const [flow] = await t.database.db.select().from(ssoFlow).orderBy(desc(ssoFlow.createdAt)).limit(1)
    const bad = idp.makeResponse({
      email: 'tina@saml.test',
      inResponseTo: flow!.state,
      acsUrl: ACS,
      audience: SP,
      signature: 'other',
    })
    const done = await postAcs(bad)
    const id = /sso_test=([0-9a-f-]{36})$/.exec(done.headers.location as string)?.[1]
    expect(id).toBe(flow!.id)
    expect(await lastLog()).toMatchObject({ action: 'LOGIN_FAILED', details: { method: 'saml' } })
    const result = (await api('GET', `/api/admin/companies/co-saml/sso/test/${id}`)).json()
    expect(result).toMatchObject({ ok: false, claims: {}, email: null })
    expect(result.message).toMatch(/^The provider's answer was refused: Invalid signature/)
  })
})

describe('refusals: each logged with its reason, none signs anyone in or creates anyone', () => {
  beforeAll(async () => {
    await t.createUser('client', { companyId: 'co-saml', email: 'carl@saml.test' })
    await t.createUser('client', { companyId: 'co-neighbour', email: 'nina@neighbour.test' })
    // Unknown users would be created: a refusal must not create one.
    await api('PUT', '/api/admin/companies/co-saml/sso', admin, samlBody({ metadataXml: undefined, createUsers: true }))
  })

  async function expectRefused(samlResponse: string, code: string, reason: RegExp) {
    const [beforeSessions, beforeUsers] = [await sessions(), await userCount()]
    const res = await postAcs(samlResponse)
    expect(res.statusCode).toBe(303)
    expect(res.headers.location).toBe(`/login?sso_error=${code}`)
    const log = await lastLog()
    expect(log.action).toBe('LOGIN_FAILED')
    expect(log.details).toMatchObject({ method: 'saml', companyId: 'co-saml' })
    expect(String((log.details as { reason: string }).reason)).toMatch(reason)
    // The reason names the check; the assertion itself is nowhere in the log.
    expect(JSON.stringify(log.details)).not.toMatch(/Assertion|PHNhbWxw|saml:/)
    expect(await sessions()).toBe(beforeSessions)
    expect(await userCount()).toBe(beforeUsers)
  }

  /** A response to a freshly started flow, differing from a good one as `change` says. */
  async function response(change: Partial<ResponseOptions> = {}) {
    const { requestId } = await startFlow()
    return idp.makeResponse({ email: 'carl@saml.test', inResponseTo: requestId, acsUrl: ACS, audience: SP, ...change })
  }

  it('accepts the good response these cases are made from', async () => {
    expect((await postAcs(await response())).headers.location).toMatch(/^\/login#sso_code=/)
  })

  it.each([
    ['an unsigned assertion', { signature: 'none' as const }, /Invalid signature/],
    ['an assertion signed by another key', { signature: 'other' as const }, /Invalid signature/],
    ['an unsigned assertion beside the signed one', { wrap: 'beside' as const }, /multiple assertions/],
    ['the signed assertion wrapped inside an unsigned one', { wrap: 'around' as const }, /signature/i],
    ['a wrong audience', { audience: 'https://someone-else.example' }, /^SAML assertion audience mismatch$/],
    ['a wrong recipient', { recipient: 'https://evil.example/acs' }, /wrong recipient/],
    ['a wrong destination', { destination: 'https://evil.example/acs' }, /wrong destination/],
    ['another issuer', { issuer: 'https://other-idp.example' }, /issuer/],
    ['an expired assertion', { notBefore: -20 * 60_000, notOnOrAfter: -10 * 60_000 }, /expired/],
    ['an assertion not yet valid', { notBefore: 10 * 60_000, notOnOrAfter: 20 * 60_000 }, /not yet valid/],
    ['an InResponseTo of no started flow', { inResponseTo: '_no-such-request' }, /no started flow/],
    ['a DOCTYPE with an entity', { prolog: '<!DOCTYPE r [<!ENTITY e "x">]>' }, /DOCTYPE/],
  ])('refuses %s', async (_label, change, reason) => {
    await expectRefused(await response(change), 'failed', reason)
  })

  it('refuses a replayed assertion id, even answering another started flow', async () => {
    const first = await response({ assertionId: '_replayed-assertion' })
    expect((await postAcs(first)).headers.location).toMatch(/^\/login#sso_code=/)
    await expectRefused(await response({ assertionId: '_replayed-assertion' }), 'expired', /assertion replayed/)
    expect(
      await t.database.db.select().from(ssoAssertion).where(eq(ssoAssertion.assertionId, '_replayed-assertion')),
    ).toHaveLength(1)
  })

  it('refuses an oversized response (and one past the route’s body limit unread)', async () => {
    const big = Buffer.from('<samlp:Response>' + 'x'.repeat(160_000) + '</samlp:Response>').toString('base64')
    await expectRefused(big, 'failed', /too large/)
    const huge = await postAcs('A'.repeat(400_000))
    expect(huge.statusCode).toBe(413)
  })

  it('refuses an e-mail of another company’s domain', async () => {
    await expectRefused(await response({ email: 'nina@neighbour.test' }), 'other_company', /another company/)
  })

  it('refuses an unsolicited response unless the connection enables them', async () => {
    const unsolicited = () =>
      idp.makeResponse({ email: 'carl@saml.test', inResponseTo: null, acsUrl: ACS, audience: SP })
    await expectRefused(unsolicited(), 'failed', /unsolicited response not enabled/)
    await api(
      'PUT',
      '/api/admin/companies/co-saml/sso',
      admin,
      samlBody({ metadataXml: undefined, allowUnsolicited: true }),
    )
    expect((await postAcs(unsolicited())).headers.location).toMatch(/^\/login#sso_code=/)
  })

  it('refuses a response for a company without a SAML connection', async () => {
    const res = await postAcs(await response(), 'co-neighbour')
    expect(res.headers.location).toBe('/login?sso_error=unavailable')
  })
})
