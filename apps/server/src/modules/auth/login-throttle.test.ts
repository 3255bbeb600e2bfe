import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import { buildTestApp, TEST_PASSWORD, type TestContext } from '../../test/helpers'

const rules = {
  account: { maxFailures: 3, windowSeconds: 900, blockSeconds: 60, maxBlockSeconds: 900 },
  ip: { maxFailures: 6, windowSeconds: 900, blockSeconds: 60, maxBlockSeconds: 900 },
}

let t: TestContext
beforeAll(async () => {
  t = await buildTestApp({ throttle: rules })
})
afterAll(async () => t.close())

const login = (email: string, password: string, ip = '127.0.0.1') =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress: ip })

/** Moves every block into the past, as if the window had passed. */
const endBlocks = () =>
  t.database.db.execute(sql`update login_throttle set blocked_until = now() - interval '1 second'`)

describe('sign-in throttling', () => {
  it('blocks an account after repeated failures with 429 and Retry-After, then lets the owner in after the block', async () => {
    const user = await t.createUser('sales')
    for (let i = 0; i < 4; i++) expect((await login(user.email, 'wrong-password', '10.0.0.1')).statusCode).toBe(401)
    const blocked = await login(user.email, TEST_PASSWORD, '10.0.0.2')
    expect(blocked.statusCode).toBe(429)
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0)
    expect(blocked.json().message).toMatch(/Too many sign-in attempts/)
    await endBlocks()
    expect((await login(user.email, TEST_PASSWORD, '10.0.0.2')).statusCode).toBe(200)
  })

  it('blocks an IP that tries many accounts', async () => {
    for (let i = 0; i < 7; i++) await login(`victim${i}@example.test`, 'wrong-password', '10.9.9.9')
    const res = await login('someone@example.test', 'whatever-password', '10.9.9.9')
    expect(res.statusCode).toBe(429)
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0)
    // Another IP is not affected.
    const user = await t.createUser('admin')
    expect((await login(user.email, TEST_PASSWORD, '10.9.9.10')).statusCode).toBe(200)
  })
})
