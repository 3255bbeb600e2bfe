import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { and, eq } from 'drizzle-orm'
import { generate, generateSecret } from 'otplib'
import { MFA_MESSAGES as M } from '@portal/shared'
import { activityLog, authSession, mailOutbox, mfaChallenge, mfaFactor, mfaRecoveryCode } from '../../db/schema'
import { buildTestApp, TEST_PASSWORD, type TestContext } from '../../test/helpers'

/**
 * Second factors end to end through the routes: TOTP codes are computed here with otplib from
 * the key the enrolment shows, and the clock (Date only) is moved in whole 30-second steps, so
 * "the next code" and "a code already used" are exact, not a matter of timing.
 */
let t: TestContext
let adminEmail: string
let clock = Date.UTC(2030, 0, 1, 12, 0, 5)
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0'

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'], now: clock })
  t = await buildTestApp()
  adminEmail = (await t.createUser('admin')).email
})
afterAll(async () => {
  vi.useRealTimers()
  await t.close()
})
afterEach(() => {
  // Every test starts on a fresh step, far from the ones before.
  clock += 10 * 60_000
  vi.useFakeTimers({ toFake: ['Date'], now: clock })
})

const step = (seconds: number) => {
  clock += seconds * 1000
  vi.setSystemTime(clock)
}
const codeAt = (secret: string, offsetSteps = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSteps * 30 })

type Headers = Record<string, string>
/** The clock moves on between tests: the admin signs in afresh rather than keep an expired token. */
const asAdmin = async (): Promise<Headers> => ({ 'x-auth-token': (await t.login(adminEmail)).accessToken })
const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers: Headers = {}, payload?: object) =>
  t.app.inject({ method, url, headers: { 'user-agent': CHROME, ...headers }, ...(payload ? { payload } : {}) })
const login = (email: string, ua = CHROME) =>
  call('POST', '/api/auth/login', { 'user-agent': ua }, { email, password: TEST_PASSWORD })

async function actions(userId: string) {
  const rows = await t.database.db.select().from(activityLog).where(eq(activityLog.userId, userId))
  return rows.map((r) => r.action)
}
async function mailsTo(email: string) {
  return t.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email))
}

/** A user of the role with a confirmed authenticator app: its key and recovery codes. */
async function enrolled(role: 'sales' | 'internal' | 'client' | 'admin' = 'sales') {
  const { user, headers } = await t.loginAs(role)
  const start = await call('POST', '/api/profile/mfa/totp', headers)
  expect(start.statusCode).toBe(200)
  const { factorId, secret } = start.json<{ factorId: string; secret: string }>()
  const confirm = await call('POST', `/api/profile/mfa/totp/${factorId}/confirm`, headers, {
    code: await codeAt(secret),
    name: 'My phone',
  })
  expect(confirm.statusCode).toBe(200)
  return { user, headers, secret, factorId, recoveryCodes: confirm.json<{ recoveryCodes: string[] }>().recoveryCodes }
}

async function secondStepFor(email: string) {
  const res = await login(email)
  expect(res.statusCode).toBe(200)
  const body = res.json()
  expect(body.accessToken).toBeUndefined()
  return body.secondStep as { token: string; kind: string; methods: string[]; expiresAt: string }
}

describe('authenticator app: enrolment from Profile', () => {
  it('shows a QR code and the key, confirms with a first code, and hands out ten recovery codes once', async () => {
    const { user, headers } = await t.loginAs('sales')
    const start = await call('POST', '/api/profile/mfa/totp', headers)
    const body = start.json()
    expect(body.secret).toMatch(/^[A-Z2-7]{16,}$/)
    expect(body.otpauthUrl).toContain(`secret=${body.secret}`)
    expect(body.qrCode).toMatch(/^data:image\/png;base64,/)
    // The key is stored sealed, never as text.
    const [row] = await t.database.db.select().from(mfaFactor).where(eq(mfaFactor.id, body.factorId))
    expect(row!.totpSecret).not.toContain(body.secret)
    expect(row!.confirmedAt).toBeNull()

    const confirm = await call('POST', `/api/profile/mfa/totp/${body.factorId}/confirm`, headers, {
      code: await codeAt(body.secret),
    })
    expect(confirm.statusCode).toBe(200)
    const codes = confirm.json().recoveryCodes as string[]
    expect(codes).toHaveLength(10)
    expect(new Set(codes).size).toBe(10)
    // Stored hashed: no code appears in the table.
    const stored = await t.database.db.select().from(mfaRecoveryCode).where(eq(mfaRecoveryCode.userId, user.id))
    expect(stored).toHaveLength(10)
    expect(JSON.stringify(stored)).not.toContain(codes[0]!.replace(/-/g, ''))

    const status = (await call('GET', '/api/profile/security', headers)).json()
    expect(status.factors).toMatchObject([{ kind: 'totp', name: 'Authenticator app' }])
    expect(status.recoveryCodesLeft).toBe(10)
    expect(await actions(user.id)).toContain('MFA_FACTOR_ADDED')
    expect((await mailsTo(user.email)).map((m) => m.subject)).toContain('A second factor was added to your account')
  })

  it('refuses a confirmation with a code of another key, or a malformed one, and changes nothing', async () => {
    const { user, headers } = await t.loginAs('sales')
    const { factorId } = (await call('POST', '/api/profile/mfa/totp', headers)).json()
    const other = await call('POST', `/api/profile/mfa/totp/${factorId}/confirm`, headers, {
      code: await codeAt(generateSecret()),
    })
    expect(other.statusCode, other.body).toBe(400)
    expect(other.json()).toMatchObject({ message: M.codeWrong, details: [{ field: 'code' }] })
    const malformed = await call('POST', `/api/profile/mfa/totp/${factorId}/confirm`, headers, { code: '12ab56' })
    expect(malformed.statusCode).toBe(400)
    expect(malformed.json().message).toBe(M.codeMalformed)
    const [row] = await t.database.db.select().from(mfaFactor).where(eq(mfaFactor.id, factorId))
    expect(row!.confirmedAt).toBeNull()
    expect((await call('GET', '/api/profile/security', headers)).json()).toMatchObject({
      factors: [],
      recoveryCodesLeft: 0,
    })
    expect(await actions(user.id)).not.toContain('MFA_FACTOR_ADDED')
  })

  it("cannot confirm another user's pending key", async () => {
    const a = await t.loginAs('sales')
    const b = await t.loginAs('sales')
    const { factorId, secret } = (await call('POST', '/api/profile/mfa/totp', a.headers)).json()
    const res = await call('POST', `/api/profile/mfa/totp/${factorId}/confirm`, b.headers, {
      code: await codeAt(secret),
    })
    expect(res.statusCode).toBe(404)
  })
})

describe('the second step of a sign-in', () => {
  it('answers a right password with a single-purpose token, and issues tokens only after the code', async () => {
    const { user, secret } = await enrolled()
    const stepToken = await secondStepFor(user.email)
    expect(stepToken).toMatchObject({ kind: 'verify', methods: ['totp', 'recovery'] })
    expect(new Date(stepToken.expiresAt).getTime() - Date.now()).toBe(60_000)
    // No session exists yet.
    const sessions = await t.database.db.select().from(authSession).where(eq(authSession.userId, user.id))
    expect(sessions).toHaveLength(1) // the one loginAs made before the factor

    // The token opens no other route: not as an access token, not on the enrolment routes.
    for (const url of ['/api/auth/me', '/api/profile/security', '/api/dispatches']) {
      expect((await call('GET', url, { 'x-auth-token': stepToken.token })).statusCode).toBe(401)
    }
    expect((await call('POST', '/api/auth/mfa/enrol/totp', {}, { token: stepToken.token })).statusCode).toBe(401)

    step(30)
    const ok = await call('POST', '/api/auth/mfa/totp', {}, { token: stepToken.token, code: await codeAt(secret) })
    expect(ok.statusCode).toBe(200)
    const session = ok.json()
    expect(session.user.email).toBe(user.email)
    expect((await call('GET', '/api/auth/me', { 'x-auth-token': session.accessToken })).statusCode).toBe(200)
    const [success] = await t.database.db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.userId, user.id), eq(activityLog.action, 'LOGIN_SUCCESS')))
      .orderBy(activityLog.id)
      .limit(1)
      .offset(1)
    expect(success!.details).toMatchObject({ method: 'password', factor: 'totp' })

    // Used once: the same token again is refused, even with a fresh code.
    step(30)
    const twice = await call('POST', '/api/auth/mfa/totp', {}, { token: stepToken.token, code: await codeAt(secret) })
    expect(twice.statusCode).toBe(401)
    expect(twice.json().message).toBe(M.stepExpired)
  })

  it('refuses wrong, reused, malformed and expired codes, and a token after its minute', async () => {
    const { user, secret } = await enrolled()
    const { token } = await secondStepFor(user.email)
    const before = await t.database.db.select().from(authSession).where(eq(authSession.userId, user.id))

    const malformed = await call('POST', '/api/auth/mfa/totp', {}, { token, code: 'abcdef' })
    expect(malformed.statusCode).toBe(400)
    expect(malformed.json()).toMatchObject({ message: M.codeMalformed, details: [{ field: 'code' }] })

    const wrong = await call('POST', '/api/auth/mfa/totp', {}, { token, code: await codeAt(generateSecret()) })
    expect(wrong.statusCode).toBe(401)
    expect(wrong.json().message).toBe(M.codeWrong)

    // The code the enrolment was confirmed with (the same step) is spent.
    const reused = await call('POST', '/api/auth/mfa/totp', {}, { token, code: await codeAt(secret) })
    expect(reused.statusCode).toBe(401)
    expect(reused.json().message).toBe(M.codeUsed)

    // Two steps back is outside the one-step window.
    const expired = await call('POST', '/api/auth/mfa/totp', {}, { token, code: await codeAt(secret, -2) })
    expect(expired.statusCode).toBe(401)
    expect(expired.json().message).toBe(M.codeWrong)

    // After its minute the token opens nothing, even with the right code.
    step(61)
    const late = await call('POST', '/api/auth/mfa/totp', {}, { token, code: await codeAt(secret) })
    expect(late.statusCode).toBe(401)
    expect(late.json().message).toBe(M.stepExpired)

    const after = await t.database.db.select().from(authSession).where(eq(authSession.userId, user.id))
    expect(after).toHaveLength(before.length)
    const failures = (await t.database.db.select().from(activityLog).where(eq(activityLog.userId, user.id))).filter(
      (r) => r.action === 'LOGIN_FAILED',
    )
    expect(failures.map((r) => (r.details as { reason: string }).reason)).toEqual([
      'wrong code',
      'code already used',
      'wrong code',
    ])
  })

  it('accepts a code one step either side, each code once', async () => {
    const { user, secret } = await enrolled()
    step(60)
    const first = await secondStepFor(user.email)
    expect(
      (await call('POST', '/api/auth/mfa/totp', {}, { token: first.token, code: await codeAt(secret, -1) })).statusCode,
    ).toBe(200)
    const second = await secondStepFor(user.email)
    expect(
      (await call('POST', '/api/auth/mfa/totp', {}, { token: second.token, code: await codeAt(secret, -1) })).json()
        .message,
    ).toBe(M.codeUsed)
    expect(
      (await call('POST', '/api/auth/mfa/totp', {}, { token: second.token, code: await codeAt(secret, 1) })).statusCode,
    ).toBe(200)
  })

  it('throttles failed codes like passwords: after five, even the right code waits', async () => {
    const { user, secret } = await enrolled()
    const { token } = await secondStepFor(user.email)
    // The throttle's blocks are timed by the database's clock (PostgreSQL's is not this test's).
    vi.useRealTimers()
    for (let i = 0; i < 6; i += 1) {
      const res = await call('POST', '/api/auth/mfa/totp', {}, { token, code: '000000' })
      expect(res.statusCode).toBe(401)
    }
    const blocked = await call('POST', '/api/auth/mfa/totp', {}, { token, code: await codeAt(secret) })
    expect(blocked.statusCode).toBe(429)
    expect(blocked.headers['retry-after']).toBeDefined()
    // A right password does not reset the count of wrong codes.
    expect((await login(user.email)).statusCode).toBe(429)
  })
})

describe('recovery codes', () => {
  it('signs in once per code, audits and mails its use; regenerating replaces them', async () => {
    const { user, headers, recoveryCodes } = await enrolled()
    const { token } = await secondStepFor(user.email)
    const typed = recoveryCodes[0]!.toLowerCase().replace(/-/g, ' ')
    const ok = await call('POST', '/api/auth/mfa/recovery', {}, { token, code: typed })
    expect(ok.statusCode).toBe(200)
    expect(await actions(user.id)).toContain('MFA_RECOVERY_CODE_USED')
    const mail = (await mailsTo(user.email)).find((m) => m.subject === 'A recovery code was used to sign in')
    expect(mail?.textBody).toContain('Recovery codes left: 9')
    expect(mail?.textBody).not.toContain(recoveryCodes[0]!)

    const again = await secondStepFor(user.email)
    const reused = await call('POST', '/api/auth/mfa/recovery', {}, { token: again.token, code: recoveryCodes[0]! })
    expect(reused.statusCode).toBe(401)
    expect(reused.json().message).toBe(M.recoveryWrong)

    const fresh = (await call('POST', '/api/profile/mfa/recovery-codes', headers)).json().recoveryCodes as string[]
    expect(fresh).toHaveLength(10)
    const old = await call('POST', '/api/auth/mfa/recovery', {}, { token: again.token, code: recoveryCodes[1]! })
    expect(old.statusCode).toBe(401)
    expect((await call('POST', '/api/auth/mfa/recovery', {}, { token: again.token, code: fresh[3]! })).statusCode).toBe(
      200,
    )
  })

  it("is not another user's code", async () => {
    const a = await enrolled()
    const b = await enrolled()
    const { token } = await secondStepFor(b.user.email)
    expect((await call('POST', '/api/auth/mfa/recovery', {}, { token, code: a.recoveryCodes[0]! })).statusCode).toBe(
      401,
    )
  })
})

describe('removing factors', () => {
  it('refuses removing the last factor where one is required, and allows it where not', async () => {
    const { user, headers, factorId } = await enrolled('internal')
    const on = await call('PUT', '/api/admin/mfa/rules', await asAdmin(), {
      rules: [{ role: 'internal', required: true }],
    })
    expect(on.json().rules).toContainEqual({ role: 'internal', required: true, isDefault: false })
    const refused = await call('DELETE', `/api/profile/mfa/factors/${factorId}`, headers)
    expect(refused.statusCode).toBe(409)
    expect(refused.json().message).toBe(M.lastFactor)
    expect((await call('GET', '/api/profile/security', headers)).json().factors).toHaveLength(1)

    await call('PUT', '/api/admin/mfa/rules', await asAdmin(), { rules: [{ role: 'internal', required: false }] })
    const removed = await call('DELETE', `/api/profile/mfa/factors/${factorId}`, headers)
    expect(removed.statusCode).toBe(200)
    expect((await call('GET', '/api/profile/security', headers)).json()).toMatchObject({
      factors: [],
      recoveryCodesLeft: 0,
    })
    expect(await actions(user.id)).toContain('MFA_FACTOR_REMOVED')
    expect((await mailsTo(user.email)).map((m) => m.subject)).toContain('A second factor was removed from your account')
    // Without a factor the next sign-in needs none.
    expect((await login(user.email)).json().accessToken).toBeDefined()
  })

  it("cannot remove another user's factor", async () => {
    const a = await enrolled()
    const b = await t.loginAs('sales')
    expect((await call('DELETE', `/api/profile/mfa/factors/${a.factorId}`, b.headers)).statusCode).toBe(404)
    expect((await call('GET', '/api/profile/security', a.headers)).json().factors).toHaveLength(1)
  })

  it('lets an admin reset a lost phone: factors and codes gone, audited, mailed', async () => {
    const { user } = await enrolled('client')
    const view = await call('GET', `/api/users/${user.id}/mfa`, await asAdmin())
    expect(view.json()).toMatchObject({ factors: [{ kind: 'totp' }], recoveryCodesLeft: 10 })
    const res = await call('DELETE', `/api/users/${user.id}/mfa`, await asAdmin())
    expect(res.statusCode).toBe(200)
    expect((await call('GET', `/api/users/${user.id}/mfa`, await asAdmin())).json()).toMatchObject({
      factors: [],
      recoveryCodesLeft: 0,
    })
    const [audit] = await t.database.db.select().from(activityLog).where(eq(activityLog.action, 'MFA_FACTORS_RESET'))
    expect(audit!.details).toMatchObject({ userId: user.id, removed: 1 })
    expect((await mailsTo(user.email)).map((m) => m.subject)).toContain('Your second factors were reset')
    expect((await login(user.email)).json().accessToken).toBeDefined()
  })
})

describe('rules: a user who must have a factor and has none', () => {
  it('is led to enrolment right after the password, and the enrolment token opens nothing else', async () => {
    await call('PUT', '/api/admin/mfa/rules', await asAdmin(), { rules: [{ role: 'sales', required: true }] })
    try {
      const user = await t.createUser('sales')
      const stepToken = await secondStepFor(user.email)
      expect(stepToken).toMatchObject({ kind: 'enrol', methods: ['totp'] })
      const { token } = stepToken
      expect((await call('GET', '/api/auth/me', { 'x-auth-token': token })).statusCode).toBe(401)
      expect((await call('POST', '/api/profile/mfa/totp', { 'x-auth-token': token })).statusCode).toBe(401)
      expect((await call('POST', '/api/auth/mfa/totp', {}, { token, code: '123456' })).json().message).toBe(
        M.stepExpired,
      )

      const start = await call('POST', '/api/auth/mfa/enrol/totp', {}, { token })
      expect(start.statusCode).toBe(200)
      const { factorId, secret } = start.json()
      const wrong = await call(
        'POST',
        '/api/auth/mfa/enrol/totp/confirm',
        {},
        {
          token,
          factorId,
          code: await codeAt(generateSecret()),
        },
      )
      expect(wrong.statusCode).toBe(400)
      const done = await call(
        'POST',
        '/api/auth/mfa/enrol/totp/confirm',
        {},
        { token, factorId, code: await codeAt(secret) },
      )
      expect(done.statusCode).toBe(200)
      expect(done.json().recoveryCodes).toHaveLength(10)
      expect((await call('GET', '/api/auth/me', { 'x-auth-token': done.json().accessToken })).statusCode).toBe(200)
      // Spent: the enrolment token does not open a second session.
      expect((await call('POST', '/api/auth/mfa/enrol/totp', {}, { token })).statusCode).toBe(401)
      // From now on the factor is asked.
      expect((await secondStepFor(user.email)).kind).toBe('verify')
    } finally {
      await call('PUT', '/api/admin/mfa/rules', await asAdmin(), { rules: [{ role: 'sales', required: false }] })
    }
  })

  it("applies a company's rule to its client users only", async () => {
    await t.createCompany('mfa-co', 'MFA Co')
    await t.createCompany('free-co', 'Free Co')
    expect((await call('PUT', '/api/admin/companies/mfa-co/mfa', await asAdmin(), { required: true })).json()).toEqual({
      required: true,
    })
    expect((await call('GET', '/api/admin/companies/mfa-co/mfa', await asAdmin())).json()).toEqual({ required: true })
    expect(
      (await call('PUT', '/api/admin/companies/no-such-co/mfa', await asAdmin(), { required: true })).statusCode,
    ).toBe(404)
    const bound = await t.createUser('client', { companyId: 'mfa-co' })
    const free = await t.createUser('client', { companyId: 'free-co' })
    expect((await secondStepFor(bound.email)).kind).toBe('enrol')
    expect((await login(free.email)).json().accessToken).toBeDefined()
    // A client role is governed by its company, not by the role rules.
    const res = await call('PUT', '/api/admin/mfa/rules', await asAdmin(), {
      rules: [{ role: 'client', required: true }],
    })
    expect(res.statusCode).toBe(400)
  })

  it('in demo mode requires nothing by default (admins included); the demo accounts sign in without a factor', async () => {
    const rules = (await call('GET', '/api/admin/mfa/rules', await asAdmin())).json().rules
    expect(rules).toContainEqual({ role: 'admin', required: false, isDefault: true })
    const another = await t.createUser('admin')
    expect((await login(another.email)).json().accessToken).toBeDefined()
  })
})

describe('sessions', () => {
  it('lists browser, system, IP, times and the current one; ends one, and that one is signed out at its next call', async () => {
    const user = await t.createUser('client')
    const first = (await login(user.email, CHROME)).json()
    const second = (await login(user.email, FIREFOX)).json()
    const list = (await call('GET', '/api/profile/sessions', { 'x-auth-token': first.accessToken })).json()
    expect(list).toHaveLength(2)
    const mine = list.find((s: { current: boolean }) => s.current)
    expect(mine).toMatchObject({ browser: 'Chrome 131', system: 'Linux', ipAddress: '127.0.0.1' })
    const other = list.find((s: { current: boolean }) => !s.current)
    expect(other).toMatchObject({ browser: 'Firefox 133', system: 'Windows 10' })

    expect((await call('GET', '/api/auth/me', { 'x-auth-token': second.accessToken })).statusCode).toBe(200)
    const end = await call('DELETE', `/api/profile/sessions/${other.id}`, { 'x-auth-token': first.accessToken })
    expect(end.statusCode).toBe(200)
    expect((await call('GET', '/api/auth/me', { 'x-auth-token': second.accessToken })).statusCode).toBe(401)
    const refresh = await call('POST', '/api/auth/refresh-token', {}, { refreshToken: second.refreshToken })
    expect(refresh.statusCode).toBe(401)
    expect((await call('GET', '/api/auth/me', { 'x-auth-token': first.accessToken })).statusCode).toBe(200)
  })

  it("refuses ending another user's session (404, nothing changed) and an admin's route to a non-admin (403)", async () => {
    const victim = await t.createUser('sales')
    const victimSession = (await login(victim.email)).json()
    const [row] = await t.database.db.select().from(authSession).where(eq(authSession.userId, victim.id))
    const attacker = await t.loginAs('sales')
    const res = await call('DELETE', `/api/profile/sessions/${row!.id}`, attacker.headers)
    expect(res.statusCode).toBe(404)
    expect(res.json().message).toBe(M.sessionNotFound)
    expect((await call('DELETE', `/api/users/${victim.id}/sessions`, attacker.headers)).statusCode).toBe(403)
    expect((await call('DELETE', `/api/users/${victim.id}/mfa`, attacker.headers)).statusCode).toBe(403)
    expect((await call('GET', '/api/auth/me', { 'x-auth-token': victimSession.accessToken })).statusCode).toBe(200)
  })

  it('signs out everywhere else, and an admin can end every session of a user', async () => {
    const user = await t.createUser('internal')
    const a = (await login(user.email)).json()
    const b = (await login(user.email, FIREFOX)).json()
    const c = (await login(user.email)).json()
    const ended = await call('POST', '/api/profile/sessions/end-others', { 'x-auth-token': a.accessToken })
    expect(ended.json()).toEqual({ message: 'Signed out of 2 other sessions', ended: 2 })
    for (const s of [b, c])
      expect((await call('GET', '/api/auth/me', { 'x-auth-token': s.accessToken })).statusCode).toBe(401)
    expect((await call('GET', '/api/auth/me', { 'x-auth-token': a.accessToken })).statusCode).toBe(200)

    const all = await call('DELETE', `/api/users/${user.id}/sessions`, await asAdmin())
    expect(all.json()).toEqual({ message: 'Ended 1 session', ended: 1 })
    expect((await call('GET', '/api/auth/me', { 'x-auth-token': a.accessToken })).statusCode).toBe(401)
    expect(await actions(user.id)).toContain('SESSION_ENDED')
  })

  it('mails a sign-in from a browser not seen before, once, and not the first sign-in of an account', async () => {
    const user = await t.createUser('sales')
    await login(user.email, CHROME)
    await login(user.email, CHROME)
    const subject = 'New sign-in to your Dispatch Portal account'
    expect((await mailsTo(user.email)).filter((m) => m.subject === subject)).toHaveLength(0)
    await login(user.email, FIREFOX)
    await login(user.email, FIREFOX)
    const mails = (await mailsTo(user.email)).filter((m) => m.subject === subject)
    expect(mails).toHaveLength(1)
    expect(mails[0]!.textBody).toContain('Firefox 133 on Windows 10')
    expect(mails[0]!.kind).toBe('security')
  })
})

describe('second-step tokens at rest', () => {
  it('are stored hashed', async () => {
    const { user } = await enrolled()
    const { token } = await secondStepFor(user.email)
    const rows = await t.database.db.select().from(mfaChallenge).where(eq(mfaChallenge.userId, user.id))
    expect(rows.length).toBeGreaterThan(0)
    expect(JSON.stringify(rows)).not.toContain(token)
  })
})
