import { beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { generateSecret } from 'otplib'
import { MFA_MESSAGES as M } from '@portal/shared'
import { activityLog, authSession, mfaChallenge } from '../../db/schema'
import type { TestContext } from '../../test/helpers'
import { CHROME, FIREFOX, mfaTests } from './mfa.test-support'

/** Removing factors, the rules that require one, sessions, and second-step tokens at rest. */
const h = mfaTests()
const { codeAt, asAdmin, call, login, actions, mailsTo, enrolled, secondStepFor } = h
let t: TestContext
beforeAll(() => {
  t = h.ctx.t
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
    expect((await login(user.email)).json()).toMatchObject({
      accessToken: expect.any(String),
      user: { email: user.email },
    })
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
    expect((await login(user.email)).json()).toMatchObject({
      accessToken: expect.any(String),
      user: { email: user.email },
    })
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
      trustProviderFactor: false,
    })
    expect((await call('GET', '/api/admin/companies/mfa-co/mfa', await asAdmin())).json()).toEqual({
      required: true,
      trustProviderFactor: false,
    })
    expect(
      (await call('PUT', '/api/admin/companies/no-such-co/mfa', await asAdmin(), { required: true })).statusCode,
    ).toBe(404)
    const bound = await t.createUser('client', { companyId: 'mfa-co' })
    const free = await t.createUser('client', { companyId: 'free-co' })
    expect((await secondStepFor(bound.email)).kind).toBe('enrol')
    expect((await login(free.email)).json()).toMatchObject({
      accessToken: expect.any(String),
      user: { email: free.email },
    })
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
    expect((await login(another.email)).json()).toMatchObject({
      accessToken: expect.any(String),
      user: { email: another.email },
    })
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
