import { createHmac } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SignJWT, decodeJwt } from 'jose'
import { buildTestApp, testConfig, type TestContext } from '../helpers'

/**
 * ASVS V9 (self-contained tokens), V7 (session management), RFC 9700 §4.14 (refresh rotation).
 * auth.routes.test.ts already covers a forged key, alg none, rotation and reuse, logout of one
 * session; users.routes.test.ts the password change. This file adds algorithm swaps, expiry, and
 * every session-ending event for a user with two sessions and an already rotated token.
 */
let t: TestContext
let admin: { 'x-auth-token': string }
beforeAll(async () => {
  t = await buildTestApp()
  admin = (await t.loginAs('admin')).headers
})
afterAll(async () => t.close())

const SECRET = new TextEncoder().encode(testConfig().jwtSecret)
const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')
const me = (token: string) => t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { 'x-auth-token': token } })
const refresh = (refreshToken: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/refresh-token', payload: { refreshToken } })

/** The claims of a real access token, re-signed however the attacker likes. */
async function claimsOfFreshSession() {
  const user = await t.createUser('sales')
  const { accessToken } = await t.login(user.email)
  const c = decodeJwt(accessToken)
  return { sub: c.sub!, sid: c.sid as string, ver: c.ver as number, typ: 'access', iss: 'dispatch-portal' }
}

describe('access tokens the server did not issue as issued', () => {
  it('the real token works (control)', async () => {
    const user = await t.createUser('sales')
    expect((await me((await t.login(user.email)).accessToken)).statusCode).toBe(200)
  })

  it.each([
    ['HS512 with the right secret', 'HS512'],
    ['HS384 with the right secret', 'HS384'],
  ])('refuses %s (only HS256 is accepted)', async (_label, alg) => {
    const claims = await claimsOfFreshSession()
    const token = await new SignJWT(claims).setProtectedHeader({ alg }).setExpirationTime('10m').sign(SECRET)
    const res = await me(token)
    expect(res.statusCode).toBe(401)
    expect(res.json().message).toBe('Invalid or expired token.')
  })

  it.each(['RS256', 'ES256', 'none', 'None', 'NONE'])(
    'refuses a header claiming %s, whether HMAC-signed with the secret or unsigned',
    async (alg) => {
      const claims = { ...(await claimsOfFreshSession()), exp: Math.floor(Date.now() / 1000) + 600 }
      const input = `${b64({ alg, typ: 'JWT' })}.${b64(claims)}`
      const hmac = createHmac('sha256', Buffer.from(SECRET)).update(input).digest('base64url')
      expect((await me(`${input}.${hmac}`)).statusCode).toBe(401)
      expect((await me(`${input}.`)).statusCode).toBe(401)
    },
  )

  it('refuses a correctly signed token that has expired, and one without an expiry', async () => {
    const claims = await claimsOfFreshSession()
    const now = Math.floor(Date.now() / 1000)
    const expired = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt(now - 1000)
      .setExpirationTime(now - 60)
      .sign(SECRET)
    expect((await me(expired)).statusCode).toBe(401)
    const forever = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(SECRET)
    expect((await me(forever)).statusCode).toBe(401)
  })

  it('refuses a token whose version or session is not the user’s current one', async () => {
    const claims = await claimsOfFreshSession()
    const sign = (c: Record<string, unknown>) =>
      new SignJWT(c).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('10m').sign(SECRET)
    expect((await me(await sign(claims))).statusCode).toBe(200)
    expect((await me(await sign({ ...claims, ver: claims.ver + 1 }))).statusCode).toBe(401)
    expect((await me(await sign({ ...claims, sid: '00000000-0000-4000-8000-000000000000' }))).statusCode).toBe(401)
  })
})

/** A user with two sessions, the first already rotated once: every token of both is listed. */
async function userWithTwoSessions(role: 'sales' | 'client' = 'sales') {
  const user = await t.createUser(role)
  const first = await t.login(user.email)
  const rotated = (await refresh(first.refreshToken)).json<{ accessToken: string; refreshToken: string }>()
  const second = await t.login(user.email)
  return {
    user,
    access: [rotated.accessToken, second.accessToken],
    refresh: [rotated.refreshToken, second.refreshToken],
    spent: first.refreshToken,
  }
}

const call = (method: 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: admin, ...(payload ? { payload } : {}) })

describe('events that end sessions', () => {
  it.each([
    ['a password change', (id: string) => call('PUT', `/api/users/${id}`, { password: 'another-long-passphrase-42' })],
    ['a suspension', (id: string) => call('PUT', `/api/users/${id}/status`, { status: 'suspended' })],
    ['a role change', (id: string) => call('PUT', `/api/users/${id}`, { role: 'internal' })],
    ['a deletion', (id: string) => call('DELETE', `/api/users/${id}`)],
  ])('after %s, every access and refresh token of every session fails on the next call', async (_label, act) => {
    const s = await userWithTwoSessions()
    for (const token of s.access) expect((await me(token)).statusCode).toBe(200)
    expect((await act(s.user.id)).statusCode).toBe(200)
    for (const token of s.access) expect((await me(token)).statusCode).toBe(401)
    for (const token of [...s.refresh, s.spent]) expect((await refresh(token)).statusCode).toBe(401)
  })

  it('after logout, that session’s tokens fail (the other session is the user’s own business)', async () => {
    const s = await userWithTwoSessions()
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/auth/revoke-token',
      payload: { refreshToken: s.refresh[0] },
    })
    expect(out.statusCode).toBe(200)
    expect((await me(s.access[0]!)).statusCode).toBe(401)
    expect((await refresh(s.refresh[0]!)).statusCode).toBe(401)
    expect((await refresh(s.spent)).statusCode).toBe(401)
    expect((await me(s.access[1]!)).statusCode).toBe(200)
  })

  it('reusing a spent refresh token revokes the family: its newest refresh and access tokens fail', async () => {
    const s = await userWithTwoSessions()
    expect((await refresh(s.spent)).statusCode).toBe(401)
    expect((await refresh(s.refresh[0]!)).statusCode).toBe(401)
    expect((await me(s.access[0]!)).statusCode).toBe(401)
    // Only that family: the other sign-in lives on.
    expect((await me(s.access[1]!)).statusCode).toBe(200)
  })
})
