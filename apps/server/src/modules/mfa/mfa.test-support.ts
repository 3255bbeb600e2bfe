import { afterAll, afterEach, beforeAll, expect, vi } from 'vitest'
import { eq } from 'drizzle-orm'
import { generate } from 'otplib'
import { activityLog, mailOutbox } from '../../db/schema'
import { buildTestApp, TEST_PASSWORD, type TestContext } from '../../test/helpers'

export const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
export const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0'
type Headers = Record<string, string>

/**
 * Second factors end to end through the routes: TOTP codes are computed here with otplib from
 * the key the enrolment shows, and the clock (Date only) is moved in whole 30-second steps, so
 * "the next code" and "a code already used" are exact, not a matter of timing. Call once per
 * test file, at its top: it builds the app before the file's tests and closes it after.
 */
export function mfaTests(options: Parameters<typeof buildTestApp>[0] = {}) {
  const ctx = { t: undefined as unknown as TestContext, adminEmail: '' }
  let clock = Date.UTC(2030, 0, 1, 12, 0, 5)

  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: clock })
    ctx.t = await buildTestApp(options)
    ctx.adminEmail = (await ctx.t.createUser('admin')).email
  })
  afterAll(async () => {
    vi.useRealTimers()
    await ctx.t.close()
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

  /** The clock moves on between tests: the admin signs in afresh rather than keep an expired token. */
  const asAdmin = async (): Promise<Headers> => ({ 'x-auth-token': (await ctx.t.login(ctx.adminEmail)).accessToken })
  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    headers: Headers = {},
    payload?: object,
  ) => ctx.t.app.inject({ method, url, headers: { 'user-agent': CHROME, ...headers }, ...(payload ? { payload } : {}) })
  const login = (email: string, ua = CHROME) =>
    call('POST', '/api/auth/login', { 'user-agent': ua }, { email, password: TEST_PASSWORD })

  async function actions(userId: string) {
    const rows = await ctx.t.database.db.select().from(activityLog).where(eq(activityLog.userId, userId))
    return rows.map((r) => r.action)
  }
  async function mailsTo(email: string) {
    return ctx.t.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email))
  }

  /** A user of the role with a confirmed authenticator app: its key and recovery codes. */
  async function enrolled(role: 'sales' | 'internal' | 'client' | 'admin' = 'sales') {
    const { user, headers } = await ctx.t.loginAs(role)
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

  async function secondStepFor(email: string, ua = CHROME) {
    const res = await login(email, ua)
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(body.accessToken).toBeUndefined()
    return body.secondStep as { token: string; kind: string; methods: string[]; expiresAt: string }
  }

  return { ctx, step, codeAt, asAdmin, call, login, actions, mailsTo, enrolled, secondStepFor }
}
