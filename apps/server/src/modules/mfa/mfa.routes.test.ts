import { beforeAll, describe, expect, it, vi } from 'vitest'
import { and, eq } from 'drizzle-orm'
import { generateSecret } from 'otplib'
import { MFA_MESSAGES as M } from '@portal/shared'
import { activityLog, authSession, mfaFactor, mfaRecoveryCode } from '../../db/schema'
import type { TestContext } from '../../test/helpers'
import { mfaTests } from './mfa.test-support'

/** Authenticator apps and recovery codes: enrolment from Profile and the second step of a sign-in. */
const h = mfaTests()
const { step, codeAt, call, login, actions, mailsTo, enrolled, secondStepFor } = h
let t: TestContext
beforeAll(() => {
  t = h.ctx.t
})

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
    expect(String(blocked.headers['retry-after'])).toMatch(/^[1-9]\d*$/)
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
