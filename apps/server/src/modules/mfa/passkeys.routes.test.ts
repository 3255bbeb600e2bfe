import { beforeAll, describe, expect, it } from 'vitest'
import { and, eq } from 'drizzle-orm'
import {
  AuthenticatorEmulator,
  PasskeysCredentialsMemoryRepository,
  RpId,
  WebAuthnEmulator,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from 'nid-webauthn-emulator'
import { MFA_MESSAGES as M } from '@portal/shared'
import { activityLog, mfaChallenge, mfaFactor } from '../../db/schema'
import type { TestContext } from '../../test/helpers'
import { mfaTests } from './mfa.test-support'
import { tokenHash } from './mfa.gate'
import { webauthnRelyingParty } from './passkeys.service'

/**
 * Passkeys through the routes, answered by a software authenticator (nid-webauthn-emulator: a
 * CTAP2 authenticator and the browser's WebAuthn client in Node). The test app's PUBLIC_URL is
 * http://portal.example.test: that is the origin and its host the relying party id.
 */
const h = mfaTests()
const { asAdmin, call, login, actions, mailsTo, enrolled, secondStepFor } = h
let t: TestContext
beforeAll(() => {
  t = h.ctx.t
})

const ORIGIN = 'http://portal.example.test'
type Headers = Record<string, string>

/**
 * One user's authenticator (its own credential store: the library's default one is shared);
 * without user verification it answers with the "user verified" flag off.
 */
function authenticator(options: { userVerified?: boolean; store?: PasskeysCredentialsMemoryRepository } = {}) {
  const uv = options.userVerified ?? true
  const interaction = () => ({ options: { uv, up: true } })
  return new WebAuthnEmulator(
    new AuthenticatorEmulator({
      credentialsRepository: options.store ?? new PasskeysCredentialsMemoryRepository(),
      verifications: { userPresent: true, userVerified: uv },
      userMakeCredentialInteraction: interaction,
      userGetAssertionInteraction: interaction,
    }),
  )
}

async function register(headers: Headers, device: WebAuthnEmulator, name = 'Laptop') {
  const options = await call('POST', '/api/profile/mfa/passkeys/options', headers)
  expect(options.statusCode, options.body).toBe(200)
  const response = device.createJSON(ORIGIN, options.json().options as PublicKeyCredentialCreationOptionsJSON)
  return call('POST', '/api/profile/mfa/passkeys', headers, { name, response })
}

/** A user of the role with one passkey (and its authenticator). */
async function withPasskey(role: 'sales' | 'internal' | 'client' | 'admin' = 'sales') {
  const { user, headers } = await t.loginAs(role)
  const store = new PasskeysCredentialsMemoryRepository()
  const device = authenticator({ store })
  const res = await register(headers, device)
  expect(res.statusCode, res.body).toBe(200)
  return { user, headers, device, store, recoveryCodes: res.json().recoveryCodes as string[] | null }
}

async function signInOptions() {
  const res = await call('POST', '/api/auth/passkey/options')
  expect(res.statusCode).toBe(200)
  return res.json() as { token: string; options: PublicKeyCredentialRequestOptionsJSON }
}

describe('the relying party', () => {
  it("is PUBLIC_URL's host and origin; a loopback address is localhost (browsers refuse IP addresses)", () => {
    expect(webauthnRelyingParty('https://portal.example.com')).toEqual({
      rpId: 'portal.example.com',
      origin: 'https://portal.example.com',
    })
    expect(webauthnRelyingParty('http://127.0.0.1:4100')).toEqual({
      rpId: 'localhost',
      origin: 'http://localhost:4100',
    })
  })
})

describe('passkeys on Profile', () => {
  it('registers several, each named; the first brings recovery codes; renamed and removed, audited and mailed', async () => {
    const { user, headers, recoveryCodes } = await withPasskey()
    expect(recoveryCodes).toHaveLength(10)
    const second = await register(headers, authenticator(), 'Phone')
    expect(second.statusCode, second.body).toBe(200)
    expect(second.json().recoveryCodes).toBeNull()
    const status = (await call('GET', '/api/profile/security', headers)).json()
    const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name)
    status.factors.sort(byName)
    expect(status.factors).toMatchObject([
      { kind: 'passkey', name: 'Laptop' },
      { kind: 'passkey', name: 'Phone' },
    ])
    // The public key and the credential are stored; nothing of them is shown.
    expect(JSON.stringify(status)).not.toMatch(/publicKey|credential/i)

    const phone = status.factors[1].id as string
    const renamed = await call('PATCH', `/api/profile/mfa/factors/${phone}`, headers, { name: 'Work phone' })
    expect(renamed.statusCode).toBe(200)
    const removed = await call('DELETE', `/api/profile/mfa/factors/${status.factors[0].id}`, headers)
    expect(removed.statusCode).toBe(200)
    expect((await call('GET', '/api/profile/security', headers)).json().factors).toMatchObject([
      { kind: 'passkey', name: 'Work phone' },
    ])
    expect(await actions(user.id)).toEqual(
      expect.arrayContaining(['MFA_FACTOR_ADDED', 'MFA_FACTOR_RENAMED', 'MFA_FACTOR_REMOVED']),
    )
    const subjects = (await mailsTo(user.email)).map((m) => m.subject)
    expect(subjects).toContain('A second factor was added to your account')
    expect(subjects).toContain('A second factor was removed from your account')
  })

  it('refuses an answer without user verification (400), to another challenge or used twice (409), adding nothing', async () => {
    const { user, headers } = await t.loginAs('sales')
    const options = (await call('POST', '/api/profile/mfa/passkeys/options', headers)).json().options
    const noUv = await call('POST', '/api/profile/mfa/passkeys', headers, {
      name: 'No PIN',
      response: authenticator({ userVerified: false }).createJSON(ORIGIN, options),
    })
    expect(noUv.statusCode).toBe(400)
    expect(noUv.json().message).toBe(M.passkeyNotAdded)

    const device = authenticator()
    const made = device.createJSON(ORIGIN, { ...options, challenge: 'bm90LWEtY2hhbGxlbmdlLW9mLXRoaXMtcG9ydGFs' })
    expect((await call('POST', '/api/profile/mfa/passkeys', headers, { name: 'X', response: made })).statusCode).toBe(
      409,
    )
    // Another user's options are no challenge of this user's.
    const other = await t.loginAs('sales')
    const theirs = (await call('POST', '/api/profile/mfa/passkeys/options', other.headers)).json().options
    const stolen = device.createJSON(ORIGIN, theirs)
    expect((await call('POST', '/api/profile/mfa/passkeys', headers, { name: 'X', response: stolen })).statusCode).toBe(
      409,
    )
    // The first answer spent the challenge (refused for missing user verification): once only.
    const late = authenticator().createJSON(ORIGIN, options)
    expect((await call('POST', '/api/profile/mfa/passkeys', headers, { name: 'X', response: late })).statusCode).toBe(
      409,
    )
    expect(await t.database.db.select().from(mfaFactor).where(eq(mfaFactor.userId, user.id))).toEqual([])
  })
})

describe('signing in with a passkey alone', () => {
  it('opens a session with no second step, once per challenge', async () => {
    const { user, device } = await withPasskey('admin')
    const { token, options } = await signInOptions()
    expect(options).toMatchObject({ rpId: 'portal.example.test', userVerification: 'required' })
    const response = device.getJSON(ORIGIN, options)
    const res = await call('POST', '/api/auth/passkey', {}, { token, response })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().user.email).toBe(user.email)
    expect((await call('GET', '/api/auth/me', { 'x-auth-token': res.json().accessToken })).statusCode).toBe(200)
    const [entry] = await t.database.db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.userId, user.id), eq(activityLog.action, 'LOGIN_SUCCESS')))
      .orderBy(activityLog.id)
      .limit(1)
      .offset(1)
    expect(entry!.details).toMatchObject({ method: 'passkey' })
    // Spent: the same token and answer do not sign in twice.
    const again = await call('POST', '/api/auth/passkey', {}, { token, response })
    expect(again.statusCode).toBe(401)
    expect(again.json().message).toBe(M.stepExpired)
  })

  it('refuses a wrong challenge, a wrong origin, a wrong relying party id and a counter going backwards', async () => {
    const { user, device, store } = await withPasskey()
    const refusedWith = async (token: string, response: unknown) => {
      const res = await call('POST', '/api/auth/passkey', {}, { token, response })
      expect(res.statusCode).toBe(401)
      expect(res.json()).toMatchObject({ message: M.passkeyRefused })
      expect(res.json().accessToken).toBeUndefined()
    }
    const a = await signInOptions()
    const b = await signInOptions()
    // Signed for b's challenge, sent with a's token.
    await refusedWith(a.token, device.getJSON(ORIGIN, b.options))
    const c = await signInOptions()
    await refusedWith(c.token, device.getJSON('http://evil.portal.example.test', c.options))
    // The same credential (id and key) as the authenticator would use it for another relying party.
    const [credential] = store.loadCredentials()
    const source = { ...credential!.publicKeyCredentialSource, rpId: new RpId('example.test') }
    store.saveCredential({ ...credential!, publicKeyCredentialSource: source })
    const d = await signInOptions()
    await refusedWith(d.token, device.getJSON(ORIGIN, { ...d.options, rpId: 'example.test' }))
    store.saveCredential(credential!)

    // Two answers signed in turn; the later one used first: the earlier one's counter is behind.
    const e = await signInOptions()
    const f = await signInOptions()
    const earlier = device.getJSON(ORIGIN, e.options)
    const later = device.getJSON(ORIGIN, f.options)
    expect((await call('POST', '/api/auth/passkey', {}, { token: f.token, response: later })).statusCode).toBe(200)
    await refusedWith(e.token, earlier)

    const reasons = (
      await t.database.db
        .select()
        .from(activityLog)
        .where(and(eq(activityLog.userId, user.id), eq(activityLog.action, 'LOGIN_FAILED')))
    ).map((r) => String((r.details as { reason: string }).reason))
    expect(reasons).toHaveLength(4)
    expect(reasons.join('\n')).toMatch(/challenge/i)
    expect(reasons.join('\n')).toMatch(/origin/i)
    expect(reasons.join('\n')).toMatch(/rp ?id/i)
    expect(reasons.join('\n')).toMatch(/counter/i)
  })

  it('refuses a passkey no account holds', async () => {
    const stranger = authenticator()
    const { token, options } = await signInOptions()
    stranger.createJSON(ORIGIN, {
      rp: { id: 'portal.example.test', name: 'Dispatch Portal' },
      user: { id: 'c3RyYW5nZXI', name: 'stranger', displayName: 'Stranger' },
      challenge: 'Y2hhbGxlbmdlLW9mLWEtc3RyYW5nZXI',
      pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    })
    const res = await call('POST', '/api/auth/passkey', {}, { token, response: stranger.getJSON(ORIGIN, options) })
    expect(res.statusCode).toBe(401)
    expect(res.json().message).toBe(M.passkeyRefused)
  })
})

describe('a passkey as the second step', () => {
  it('follows the password, and the step token opens no other route', async () => {
    const { user, device } = await withPasskey()
    const step = await secondStepFor(user.email)
    expect(step.methods).toEqual(['passkey', 'recovery'])
    // The second-step token is not a passkey sign-in token, nor an access token.
    const alone = await signInOptions()
    const misused = await call(
      'POST',
      '/api/auth/passkey',
      {},
      { token: step.token, response: device.getJSON(ORIGIN, alone.options) },
    )
    expect(misused.statusCode).toBe(401)
    expect((await call('GET', '/api/auth/me', { 'x-auth-token': step.token })).statusCode).toBe(401)
    expect((await call('POST', '/api/profile/mfa/passkeys/options', { 'x-auth-token': step.token })).statusCode).toBe(
      401,
    )
    // Nor is a passkey sign-in token a second-step token.
    const wrongWay = await call('POST', '/api/auth/mfa/passkey/options', {}, { token: alone.token })
    expect(wrongWay.statusCode).toBe(401)

    const options = await call('POST', '/api/auth/mfa/passkey/options', {}, { token: step.token })
    expect(options.statusCode).toBe(200)
    const res = await call(
      'POST',
      '/api/auth/mfa/passkey',
      {},
      { token: step.token, response: device.getJSON(ORIGIN, options.json().options) },
    )
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().accessToken).toBeTruthy()
    // Spent with the session.
    expect((await call('POST', '/api/auth/mfa/passkey/options', {}, { token: step.token })).statusCode).toBe(401)
  })

  it("refuses another user's passkey, and the answer is checked once", async () => {
    const alice = await withPasskey()
    const bob = await withPasskey()
    const step = await secondStepFor(bob.user.email)
    const options = (await call('POST', '/api/auth/mfa/passkey/options', {}, { token: step.token })).json().options
    // Alice's authenticator answers Bob's challenge with her own credential.
    const hers = alice.device.getJSON(ORIGIN, { ...options, allowCredentials: [] })
    const res = await call('POST', '/api/auth/mfa/passkey', {}, { token: step.token, response: hers })
    expect(res.statusCode).toBe(401)
    expect(res.json().message).toBe(M.passkeyRefused)
    // The challenge went with that answer: Bob's own answer to it is refused too.
    const his = bob.device.getJSON(ORIGIN, options)
    expect((await call('POST', '/api/auth/mfa/passkey', {}, { token: step.token, response: his })).statusCode).toBe(401)
    const [row] = await t.database.db
      .select()
      .from(mfaChallenge)
      .where(eq(mfaChallenge.tokenHash, tokenHash(step.token)))
    expect(row!.usedAt).toBeNull()
  })

  it('an account with only an authenticator app gets no passkey options', async () => {
    const { user } = await enrolled()
    const step = await secondStepFor(user.email)
    const res = await call('POST', '/api/auth/mfa/passkey/options', {}, { token: step.token })
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toBe(M.noPasskey)
  })
})

describe('the last factor', () => {
  it('a required passkey cannot be removed while it is the only factor', async () => {
    const { headers } = await withPasskey('internal')
    await call('PUT', '/api/admin/mfa/rules', await asAdmin(), { rules: [{ role: 'internal', required: true }] })
    try {
      const [factor] = (await call('GET', '/api/profile/security', headers)).json().factors
      const res = await call('DELETE', `/api/profile/mfa/factors/${factor.id}`, headers)
      expect(res.statusCode).toBe(409)
      expect(res.json().message).toBe(M.lastFactor)
      expect((await call('GET', '/api/profile/security', headers)).json().factors).toHaveLength(1)
    } finally {
      await call('PUT', '/api/admin/mfa/rules', await asAdmin(), { rules: [{ role: 'internal', required: false }] })
    }
  })
})

it('the password still signs in where a passkey is not the way in', async () => {
  const { user } = await t.loginAs('sales')
  expect((await login(user.email)).json().accessToken).toBeTruthy()
})

describe('the OpenAPI document', () => {
  it('describes every passkey route with its body and answers', async () => {
    const doc = (await call('GET', '/api/docs/json')).json() as {
      paths: Record<string, Record<string, { requestBody?: unknown; responses: Record<string, unknown> }>>
    }
    const routes = [
      ['post', '/api/auth/passkey/options', ['200']],
      ['post', '/api/auth/passkey', ['200', '401']],
      ['post', '/api/auth/mfa/passkey/options', ['200', '401']],
      ['post', '/api/auth/mfa/passkey', ['200', '401']],
      ['post', '/api/profile/mfa/passkeys/options', ['200', '401', '403']],
      ['post', '/api/profile/mfa/passkeys', ['200', '400', '409']],
      ['patch', '/api/profile/mfa/factors/{factorId}', ['200', '404']],
    ] as const
    for (const [method, path, statuses] of routes) {
      const operation = doc.paths[path]?.[method]
      expect(operation, `${method} ${path}`).toMatchObject({ responses: expect.any(Object) })
      expect(Object.keys(operation!.responses)).toEqual(expect.arrayContaining([...statuses]))
    }
    expect(doc.paths['/api/auth/passkey']!.post!.requestBody).toMatchObject({
      content: { 'application/json': { schema: expect.any(Object) } },
    })
  })
})

it('bounds the options a single address may ask for (each stores a challenge)', async () => {
  // An address no other test used, so the limit's window starts with this test's first request
  // (a window opened earlier in the file could end midway and let every request through).
  const answers = []
  for (let i = 0; i < 35; i += 1) {
    const answer = await t.app.inject({
      method: 'POST',
      url: '/api/auth/passkey/options',
      remoteAddress: '203.0.113.77',
    })
    answers.push(answer.statusCode)
  }
  expect(answers).toContain(429)
  expect(answers.filter((s) => s === 200).length).toBeLessThanOrEqual(30)
})
