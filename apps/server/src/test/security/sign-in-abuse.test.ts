import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import { passwordVerifications } from '../../lib/passwords'
import { buildTestApp, TEST_PASSWORD, type TestContext } from '../helpers'

/**
 * ASVS V6.3 (brute force), OWASP API4/API2: login-throttle.test.ts covers the basic per-account
 * and per-IP blocks; this file adds the ways around them (case, spoofed X-Forwarded-For, unknown
 * accounts), the owner after the window, and the equal answer for unknown email and wrong password.
 */
const rules = {
  account: { maxFailures: 3, windowSeconds: 900, blockSeconds: 60, maxBlockSeconds: 900 },
  ip: { maxFailures: 8, windowSeconds: 900, blockSeconds: 60, maxBlockSeconds: 900 },
}

let t: TestContext
beforeAll(async () => {
  t = await buildTestApp({ throttle: rules })
})
afterAll(async () => t.close())
beforeEach(async () => {
  await t.database.db.execute(sql`delete from login_throttle`)
})

const login = (email: string, password: string, ip: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress: ip, headers })
const endBlocks = () =>
  t.database.db.execute(sql`update login_throttle set blocked_until = now() - interval '1 second'`)

describe('per-account throttling cannot be side-stepped', () => {
  it('counts the same account whatever the case or surrounding spaces of the email', async () => {
    const user = await t.createUser('sales', { email: 'casey@example.test' })
    for (const email of ['casey@example.test', 'CASEY@example.test', ' Casey@Example.Test ', 'casey@EXAMPLE.test']) {
      expect((await login(email, 'wrong-password-123', `10.1.0.${email.length}`)).statusCode).toBe(401)
    }
    const blocked = await login(user.email, TEST_PASSWORD, '10.1.1.1')
    expect(blocked.statusCode).toBe(429)
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThanOrEqual(1)
    expect(blocked.json()).toEqual({ code: 'TOO_MANY_REQUESTS', message: expect.stringMatching(/Too many sign-in/) })
  })

  it('blocks an unknown account exactly like a real one (no enumeration through the throttle)', async () => {
    const user = await t.createUser('sales')
    const answers = []
    for (const email of [user.email, 'ghost@example.test']) {
      for (let i = 0; i < 4; i++) await login(email, 'wrong-password-123', `10.2.${i}.${email.length}`)
      const res = await login(email, 'wrong-password-123', '10.2.9.9')
      answers.push({ status: res.statusCode, body: res.json(), retry: res.headers['retry-after'] })
    }
    expect(answers[0]!.status).toBe(429)
    expect(answers[1]).toEqual(answers[0])
  })

  it('lets the owner in once the window has passed, even after an attacker kept trying', async () => {
    const user = await t.createUser('client')
    for (let i = 0; i < 6; i++) await login(user.email, 'wrong-password-123', `10.3.0.${i}`)
    expect((await login(user.email, TEST_PASSWORD, '10.3.1.1')).statusCode).toBe(429)
    await endBlocks()
    const res = await login(user.email, TEST_PASSWORD, '10.3.1.1')
    expect(res.statusCode).toBe(200)
    expect(res.json().accessToken).toEqual(expect.any(String))
  })
})

describe('per-IP throttling', () => {
  it('blocks one address spraying many accounts, with Retry-After, and a spoofed X-Forwarded-For does not help', async () => {
    for (let i = 0; i < 9; i++) {
      await login(`spray${i}@example.test`, 'wrong-password-123', '10.4.4.4', { 'x-forwarded-for': `192.0.2.${i}` })
    }
    const user = await t.createUser('admin')
    const blocked = await login(user.email, TEST_PASSWORD, '10.4.4.4', { 'x-forwarded-for': '198.51.100.7' })
    expect(blocked.statusCode).toBe(429)
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThanOrEqual(1)
    // The same owner from another address is not affected.
    expect((await login(user.email, TEST_PASSWORD, '10.4.4.5')).statusCode).toBe(200)
  })
})

describe('unknown email and wrong password look the same', () => {
  it('in status and body, and both check a password with argon2 (so both take the time of a hash)', async () => {
    const user = await t.createUser('internal')
    const before = passwordVerifications()
    const wrong = await login(user.email, 'wrong-password-123', '10.5.0.1')
    const afterWrong = passwordVerifications() - before
    const unknown = await login('nobody-here@example.test', 'wrong-password-123', '10.5.0.2')
    const afterUnknown = passwordVerifications() - before - afterWrong
    expect(wrong.statusCode).toBe(401)
    expect(unknown.statusCode).toBe(401)
    expect(unknown.json()).toEqual(wrong.json())
    expect(wrong.json()).toEqual({ code: 'UNAUTHENTICATED', message: 'Invalid email or password.' })
    expect(afterWrong).toBe(1)
    expect(afterUnknown).toBe(1)
  })

  it('a suspended account answers like a wrong password', async () => {
    const user = await t.createUser('client')
    await t.database.db.execute(sql`update app_user set status = 'suspended' where id = ${user.id}`)
    const suspended = await login(user.email, TEST_PASSWORD, '10.6.0.1')
    const wrong = await login('other@example.test', TEST_PASSWORD, '10.6.0.2')
    expect(suspended.statusCode).toBe(401)
    expect(suspended.json()).toEqual(wrong.json())
  })
})
