import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { LightMyRequestResponse } from 'fastify'
import { buildApp } from '../../app'
import type { Database } from '../../db/client'
import { buildTestApp, testConfig, type TestContext } from '../helpers'
import { createTestDatabase } from '../test-database'

/**
 * ASVS V3.4 (browser security headers), V4.1 (CORS). app.test.ts checks the headers on a 2xx,
 * a 401 and a 404; this file adds a 5xx, a 403, a 400 and a 413, HSTS behind a TLS proxy, and
 * CORS closed by default and open only to a configured origin.
 */
let t: TestContext
let failing: Awaited<ReturnType<typeof buildApp>>
let failingDb: Database
beforeAll(async () => {
  t = await buildTestApp({ config: testConfig({ trustProxy: true }) })
  // A second app with one route that fails, for the 5xx answer.
  failingDb = await createTestDatabase()
  failing = await buildApp({ config: testConfig(), database: failingDb, logger: false })
  failing.get('/api/boom', { config: { public: true } }, async () => {
    throw new Error('boom with a secret stack')
  })
  await failing.ready()
})
afterAll(async () => {
  await t.close()
  await failing.close()
  await failingDb.close()
})

function expectSecurityHeaders(res: LightMyRequestResponse) {
  const csp = String(res.headers['content-security-policy'])
  const directive = (name: string) =>
    csp
      .split(';')
      .map((d) => d.trim())
      .find((d) => d.startsWith(`${name} `))
  expect(directive('script-src')).toBe("script-src 'self'")
  expect(directive('object-src')).toBe("object-src 'none'")
  expect(directive('base-uri')).toBe("base-uri 'none'")
  expect(directive('frame-ancestors')).toBe("frame-ancestors 'none'")
  expect(csp).not.toMatch(/unsafe-eval/)
  expect(res.headers['x-content-type-options']).toBe('nosniff')
  expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin')
  expect(res.headers['x-powered-by']).toBeUndefined()
  expect(res.headers['access-control-allow-origin']).toBeUndefined()
}

describe('security headers on every kind of answer', () => {
  it('on a 5xx, which says nothing of the cause', async () => {
    const res = await failing.inject({ method: 'GET', url: '/api/boom' })
    expect(res.statusCode).toBe(500)
    expect(res.json()).toEqual({ code: 'INTERNAL', message: 'Something went wrong. Please try again.' })
    expectSecurityHeaders(res)
  })

  it.each([
    ['403', { method: 'GET', url: '/api/users' }, 'sales', 403],
    ['400', { method: 'GET', url: '/api/dispatches?pageSize=7' }, 'sales', 400],
    [
      '413',
      { method: 'POST', url: '/api/logs/action', payload: { action: 'x', details: 'y'.repeat(1_100_000) } },
      'sales',
      413,
    ],
  ] as const)('on a %s', async (_label, request, role, status) => {
    const { headers } = await t.loginAs(role)
    const res = await t.app.inject({ ...request, headers })
    expect(res.statusCode).toBe(status)
    expectSecurityHeaders(res)
  })
})

describe('HSTS', () => {
  it('is sent for a request that reached a TLS proxy (TRUST_PROXY and x-forwarded-proto https)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-forwarded-proto': 'https' } })
    const hsts = String(res.headers['strict-transport-security'])
    expect(Number(/max-age=(\d+)/.exec(hsts)?.[1])).toBeGreaterThanOrEqual(31_536_000)
    expect(hsts).toContain('includeSubDomains')
  })
})

describe('CORS', () => {
  it('is closed by default: no allow-origin for a foreign origin, and a preflight grants nothing', async () => {
    const origin = 'https://evil.example'
    const get = await t.app.inject({ method: 'GET', url: '/api/health', headers: { origin } })
    expect(get.headers['access-control-allow-origin']).toBeUndefined()
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/auth/me',
      headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-auth-token' },
    })
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined()
    expect(preflight.headers['access-control-allow-headers']).toBeUndefined()
  })

  it('opens to a configured origin only', async () => {
    const db = await createTestDatabase()
    const app = await buildApp({
      config: testConfig({ corsOrigins: ['https://portal.example'] }),
      database: db,
      logger: false,
    })
    try {
      const ok = await app.inject({ method: 'GET', url: '/api/health', headers: { origin: 'https://portal.example' } })
      expect(ok.headers['access-control-allow-origin']).toBe('https://portal.example')
      expect(ok.headers['access-control-allow-credentials']).toBeUndefined()
      const other = await app.inject({ method: 'GET', url: '/api/health', headers: { origin: 'https://evil.example' } })
      expect(other.headers['access-control-allow-origin']).toBeUndefined()
    } finally {
      await app.close()
      await db.close()
    }
  })
})
