import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { and, desc, eq } from 'drizzle-orm'
import { activityLog } from '../../db/schema'
import { buildTestApp, TEST_PASSWORD, type TestContext } from '../../test/helpers'
import { startCraftedProvider } from '../sso/sso.test-support'
import { providerSecondFactors } from './mfa.gate'

/**
 * "Trust the provider's second factor": with a company's single sign-on, the `amr` values the
 * OIDC provider puts in its ID token (RFC 8176) may stand for the second factor. The crafted
 * provider of the single sign-on tests answers with the ID token each test makes.
 */
let t: TestContext
let admin: Record<string, string>
let crafted: Awaited<ReturnType<typeof startCraftedProvider>>
let carla: { id: string; email: string }

const api = (method: 'GET' | 'PUT' | 'POST', url: string, headers: Record<string, string> = {}, payload?: object) =>
  t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) })

beforeAll(async () => {
  t = await buildTestApp()
  admin = (await t.loginAs('admin')).headers
  crafted = await startCraftedProvider('amr-client')
  await t.createCompany('co-amr', 'Amr Co')
  const connection = {
    protocol: 'oidc',
    issuer: crafted.issuer,
    clientId: 'amr-client',
    clientSecret: 'client-secret-value-9931',
    ssoRequired: false,
    createUsers: false,
  }
  expect((await api('PUT', '/api/admin/companies/co-amr/sso', admin, connection)).statusCode).toBe(200)
  await api('PUT', '/api/admin/companies/co-amr/sso/domains', admin, { domains: ['amr.test'] })
  carla = await t.createUser('client', { companyId: 'co-amr', email: 'carla@amr.test' })
  // The company requires a second factor; Carla has none yet.
  await api('PUT', '/api/admin/companies/co-amr/mfa', admin, { required: true })
})
afterAll(async () => {
  await t.close()
  await crafted.close()
})

const trust = async (trustProviderFactor: boolean) =>
  api('PUT', '/api/admin/companies/co-amr/mfa', admin, { required: true, trustProviderFactor })

/** A single sign-on whose ID token carries `amr` (or none); the sign-in page's exchange answer. */
async function signInWithAmr(amr?: unknown) {
  const started = await api('GET', '/api/auth/sso/co-amr/start')
  const cookie = String(started.headers['set-cookie']).split(';')[0]!
  const params = new URL(started.headers.location as string).searchParams
  crafted.prepare({ email: carla.email, nonce: params.get('nonce')!, claims: amr === undefined ? {} : { amr } })
  const back = await api('GET', `/api/auth/sso/callback?code=abc&state=${params.get('state')}`, { cookie })
  const code = /sso_code=([^&]+)/.exec(String(back.headers.location))?.[1]
  expect(code, String(back.headers.location)).toBeTruthy()
  const exchange = await api('POST', '/api/auth/sso/exchange', {}, { code })
  expect(exchange.statusCode).toBe(200)
  return exchange.json() as { accessToken?: string; secondStep?: { kind: string } }
}

describe("trusting the provider's second factor", () => {
  it('is off by default: the amr is not enough, the rule leads to enrolment', async () => {
    expect((await api('GET', '/api/admin/companies/co-amr/mfa', admin)).json()).toEqual({
      required: true,
      trustProviderFactor: false,
    })
    const answer = await signInWithAmr(['pwd', 'mfa'])
    expect(answer.accessToken).toBeUndefined()
    expect(answer.secondStep?.kind).toBe('enrol')
  })

  it('when on, a reported second factor signs in with no second step, and the log says which', async () => {
    const saved = await trust(true)
    expect(saved.json()).toEqual({ required: true, trustProviderFactor: true })
    const audit = await t.database.db
      .select()
      .from(activityLog)
      .where(eq(activityLog.action, 'MFA_RULES_UPDATED'))
      .orderBy(desc(activityLog.id))
      .limit(1)
    expect(audit[0]!.details).toMatchObject({ after: { trustProviderFactor: true } })
    try {
      for (const amr of [['pwd', 'mfa'], ['otp'], ['hwk'], ['swk']]) {
        const answer = await signInWithAmr(amr)
        expect(answer.secondStep, JSON.stringify(amr)).toBeUndefined()
        expect(answer.accessToken).toBeTruthy()
      }
      const [success] = await t.database.db
        .select()
        .from(activityLog)
        .where(and(eq(activityLog.userId, carla.id), eq(activityLog.action, 'LOGIN_SUCCESS')))
        .orderBy(desc(activityLog.id))
        .limit(1)
      expect(success!.details).toMatchObject({ method: 'oidc', factor: 'provider (swk)', providerAmr: ['swk'] })
    } finally {
      await trust(false)
    }
  })

  it('when on, a password alone at the provider, no amr, or a malformed amr still asks the portal', async () => {
    await trust(true)
    try {
      for (const amr of [['pwd'], undefined, 'mfa', [42]]) {
        const answer = await signInWithAmr(amr)
        expect(answer.accessToken, JSON.stringify(amr)).toBeUndefined()
        expect(answer.secondStep?.kind).toBe('enrol')
      }
      // A password sign-in to the portal itself has no provider to trust.
      const password = await api('POST', '/api/auth/login', {}, { email: carla.email, password: TEST_PASSWORD })
      expect(password.json().secondStep?.kind).toBe('enrol')
    } finally {
      await trust(false)
    }
  })

  it('reads only the RFC 8176 values that mean more than a password', () => {
    expect(providerSecondFactors(['pwd', 'mfa', 'otp', 'sms', 'hwk', 'swk', 'face'])).toEqual([
      'mfa',
      'otp',
      'hwk',
      'swk',
    ])
    expect(providerSecondFactors('mfa')).toEqual([])
    expect(providerSecondFactors(undefined)).toEqual([])
  })
})
