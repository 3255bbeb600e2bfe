import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REDACT } from '../../server-options'
import { buildTestApp, TEST_PASSWORD, type TestContext } from '../helpers'

/**
 * ASVS V16.2 (no secrets in logs): the server runs with its production redaction at level trace,
 * writing to memory, while users sign in, refresh, sign out, are created and change passwords,
 * and requests fail validation with a password in the body. No password and no issued token
 * may appear in what was logged.
 */
const lines: string[] = []
let t: TestContext
beforeAll(async () => {
  t = await buildTestApp({
    logger: { level: 'trace', redact: REDACT, stream: { write: (line: string) => void lines.push(line) } },
  })
})
afterAll(async () => t.close())

describe('secrets in logs', () => {
  it('holds no test password and no issued token after sign-ins, refreshes and user changes', async () => {
    const secrets = new Set<string>([TEST_PASSWORD])
    const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'POST', url, payload, headers })

    const { user, headers } = await t.loginAs('admin')
    secrets.add(headers['x-auth-token'])
    const other = await t.createUser('sales')
    const session = await t.login(other.email)
    secrets.add(session.accessToken).add(session.refreshToken)
    const refreshed = (await post('/api/auth/refresh-token', { refreshToken: session.refreshToken })).json()
    secrets.add(refreshed.accessToken).add(refreshed.refreshToken)
    // A reuse, a logout, a wrong password and an unknown email.
    await post('/api/auth/refresh-token', { refreshToken: session.refreshToken })
    await post('/api/auth/login', { email: other.email, password: 'Wrong-Secret-Pass-991' })
    await post('/api/auth/login', { email: 'ghost@example.test', password: 'Ghost-Secret-Pass-992' })
    secrets.add('Wrong-Secret-Pass-991').add('Ghost-Secret-Pass-992')
    const again = await t.login(other.email)
    secrets.add(again.accessToken).add(again.refreshToken)
    await post('/api/auth/revoke-token', { refreshToken: again.refreshToken })

    const created = 'Created-User-Pass-993'
    const madeRes = await post(
      '/api/users',
      { email: 'logged@example.test', password: created, role: 'internal' },
      headers,
    )
    expect(madeRes.statusCode).toBe(201)
    const changed = 'Changed-User-Pass-994'
    await t.app.inject({
      method: 'PUT',
      url: `/api/users/${madeRes.json().id}`,
      payload: { password: changed },
      headers,
    })
    // Refused bodies: a too-short password, a malformed one, a body over the limit.
    await post('/api/users', { email: 'short@example.test', password: 'Short-995', role: 'internal' }, headers)
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":"a@b.c","password":"Broken-Json-Pass-996"',
    })
    secrets.add(created).add(changed).add('Short-995').add('Broken-Json-Pass-996')
    void user

    const log = lines.join('')
    // The log is not empty: requests were logged at this level.
    expect(log).toContain('/api/auth/login')
    expect(log).toContain('/api/users')
    for (const secret of secrets)
      expect(log.includes(secret), `a secret reached the log: ${secret.slice(0, 12)}…`).toBe(false)
  })
})
