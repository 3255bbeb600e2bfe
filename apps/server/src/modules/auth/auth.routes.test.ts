import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { SignJWT } from 'jose'
import { activityLog, appUser } from '../../db/schema'
import { buildTestApp, TEST_PASSWORD, type TestContext } from '../../test/helpers'

let t: TestContext
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(async () => t.close())

const post = (url: string, payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url, payload })
const me = (token: string) => t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { 'x-auth-token': token } })

async function actions(userId: string) {
  const rows = await t.database.db.select().from(activityLog).where(eq(activityLog.userId, userId))
  return rows.map((r) => r.action)
}

describe('POST /api/auth/login', () => {
  it('signs in with the right password and returns tokens and the user without secrets', async () => {
    const user = await t.createUser('sales', { name: 'Sally Sales' })
    const res = await post('/api/auth/login', { email: user.email.toUpperCase(), password: TEST_PASSWORD })
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(body.user).toMatchObject({
      id: user.id,
      email: user.email,
      role: 'sales',
      name: 'Sally Sales',
      status: 'active',
    })
    expect(body.user.passwordHash).toBeUndefined()
    expect(res.body).not.toContain('argon2')
    expect(typeof body.accessToken).toBe('string')
    const payload = JSON.parse(Buffer.from(body.refreshToken.split('.')[1], 'base64url').toString())
    expect(payload.exp).toBeGreaterThan(Date.now() / 1000)
    expect((await me(body.accessToken)).json().email).toBe(user.email)
    expect(await actions(user.id)).toContain('LOGIN_SUCCESS')
    const [row] = await t.database.db.select().from(appUser).where(eq(appUser.id, user.id))
    expect(row!.lastLogin).not.toBeNull()
  })

  it('answers an unknown email and a wrong password alike, and logs LOGIN_FAILED with the IP', async () => {
    const user = await t.createUser('internal')
    const wrong = await post('/api/auth/login', { email: user.email, password: 'not-the-password' })
    const unknown = await post('/api/auth/login', { email: 'nobody@example.test', password: 'not-the-password' })
    expect(wrong.statusCode).toBe(401)
    expect(unknown.statusCode).toBe(401)
    expect(wrong.json()).toEqual(unknown.json())
    expect(wrong.json().message).toBe('Invalid email or password.')
    const [failed] = await t.database.db.select().from(activityLog).where(eq(activityLog.userId, user.id))
    expect(failed).toMatchObject({ action: 'LOGIN_FAILED', ipAddress: '127.0.0.1' })
  })

  it('refuses a suspended user', async () => {
    const user = await t.createUser('client')
    await t.database.db.update(appUser).set({ status: 'suspended' }).where(eq(appUser.id, user.id))
    const res = await post('/api/auth/login', { email: user.email, password: TEST_PASSWORD })
    expect(res.statusCode).toBe(401)
  })

  it('rejects a body without a password with a 400 JSON error', async () => {
    const res = await post('/api/auth/login', { email: 'a@b.c' })
    expect(res.statusCode).toBe(400)
    expect(res.json().code).toBe('VALIDATION_FAILED')
  })
})

describe('GET /api/auth/me', () => {
  it('answers 401 without a token, with a garbage token, and with a forged or alg-none token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me' })).statusCode).toBe(401)
    expect((await me('garbage')).statusCode).toBe(401)
    const user = await t.createUser('admin')
    const forged = await new SignJWT({ sub: user.id, sid: user.id, ver: 0, typ: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('dispatch-portal')
      .setExpirationTime('10m')
      .sign(new TextEncoder().encode('another-secret-another-secret-another-secret'))
    expect((await me(forged)).statusCode).toBe(401)
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')
    const body = Buffer.from(
      JSON.stringify({ sub: user.id, sid: user.id, ver: 0, typ: 'access', iss: 'dispatch-portal' }),
    ).toString('base64url')
    expect((await me(`${header}.${body}.`)).statusCode).toBe(401)
  })

  it('stops accepting the token once the user is suspended', async () => {
    const user = await t.createUser('internal')
    const { accessToken } = await t.login(user.email)
    expect((await me(accessToken)).statusCode).toBe(200)
    await t.database.db.update(appUser).set({ status: 'suspended' }).where(eq(appUser.id, user.id))
    expect((await me(accessToken)).statusCode).toBe(401)
  })
})

describe('refresh tokens', () => {
  it('rotates: the new pair works and the old refresh token is single use', async () => {
    const user = await t.createUser('sales')
    const first = await t.login(user.email)
    const res = await post('/api/auth/refresh-token', { refreshToken: first.refreshToken })
    expect(res.statusCode).toBe(200)
    const second = res.json()
    expect(second.refreshToken).not.toBe(first.refreshToken)
    expect(second.user.id).toBe(user.id)
    expect((await me(second.accessToken)).statusCode).toBe(200)
  })

  it('revokes the whole family when a spent token is presented again, and logs TOKEN_REUSE_DETECTED', async () => {
    const user = await t.createUser('sales')
    const first = await t.login(user.email)
    const second = (await post('/api/auth/refresh-token', { refreshToken: first.refreshToken })).json()
    const reuse = await post('/api/auth/refresh-token', { refreshToken: first.refreshToken })
    expect(reuse.statusCode).toBe(401)
    // The legitimate newer tokens of the family are dead too.
    expect((await post('/api/auth/refresh-token', { refreshToken: second.refreshToken })).statusCode).toBe(401)
    expect((await me(second.accessToken)).statusCode).toBe(401)
    expect(await actions(user.id)).toContain('TOKEN_REUSE_DETECTED')
  })

  it('refuses a refresh for a suspended user', async () => {
    const user = await t.createUser('client')
    const tokens = await t.login(user.email)
    await t.database.db.update(appUser).set({ status: 'suspended' }).where(eq(appUser.id, user.id))
    expect((await post('/api/auth/refresh-token', { refreshToken: tokens.refreshToken })).statusCode).toBe(401)
  })

  it('refuses an access token used as a refresh token', async () => {
    const user = await t.createUser('client')
    const tokens = await t.login(user.email)
    expect((await post('/api/auth/refresh-token', { refreshToken: tokens.accessToken })).statusCode).toBe(401)
  })
})

describe('POST /api/auth/revoke-token (logout)', () => {
  it('ends the session: the refresh and the access token stop working, LOGOUT is logged', async () => {
    const user = await t.createUser('admin')
    const tokens = await t.login(user.email)
    const res = await post('/api/auth/revoke-token', { refreshToken: tokens.refreshToken })
    expect(res.statusCode).toBe(200)
    expect((await post('/api/auth/refresh-token', { refreshToken: tokens.refreshToken })).statusCode).toBe(401)
    expect((await me(tokens.accessToken)).statusCode).toBe(401)
    expect(await actions(user.id)).toContain('LOGOUT')
  })

  it('answers the same for an unknown token', async () => {
    const res = await post('/api/auth/revoke-token', { refreshToken: 'unknown' })
    expect(res.statusCode).toBe(200)
  })
})

describe('GET /api/auth/users', () => {
  it('lists id, name and email for an admin', async () => {
    const { headers } = await t.loginAs('admin')
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/users', headers })
    expect(res.statusCode).toBe(200)
    const list = res.json() as { id: string; name: string; email: string }[]
    expect(list.length).toBeGreaterThan(0)
    expect(Object.keys(list[0]!).sort()).toEqual(['email', 'id', 'name'])
  })

  it('is refused to other roles', async () => {
    for (const role of ['sales', 'internal', 'client'] as const) {
      const { headers } = await t.loginAs(role)
      const res = await t.app.inject({ method: 'GET', url: '/api/auth/users', headers })
      expect(res.statusCode).toBe(403)
    }
  })
})

describe('GET /api/auth/config', () => {
  it('lists the demo accounts in demo mode', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/config' })
    expect(res.json()).toMatchObject({ demoMode: true, demoPassword: 'demo-portal-pass' })
    expect(res.json().demoAccounts.map((a: { email: string }) => a.email)).toContain('client@demo.local')
  })
})
