import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { brotliDecompressSync, brotliCompressSync } from 'node:zlib'
import { buildTestApp, testConfig, type TestContext } from './test/helpers'
import { usingPostgres } from './test/test-database'

let t: TestContext
let dist: string
beforeAll(async () => {
  dist = mkdtempSync(path.join(tmpdir(), 'portal-dist-'))
  mkdirSync(path.join(dist, 'assets'))
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Portal</title><div id="root"></div>')
  writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), 'console.log(1)')
  // As scripts/compress-dist.mjs leaves it after a build.
  writeFileSync(path.join(dist, 'assets', 'app-abc123.js.br'), brotliCompressSync('console.log(1)'))
  t = await buildTestApp({ config: testConfig({ webDistDir: dist }) })
})
afterAll(async () => {
  await t.close()
  rmSync(dist, { recursive: true, force: true })
})

describe('operations', () => {
  it('GET /api/health answers without any dependency', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' })
    expect(res.json()).toEqual({
      status: 'ok',
      role: 'all',
      database: usingPostgres() ? 'postgres' : 'pglite',
      jobs: { state: 'running', working: true },
    })
  })

  it('GET /api/ready checks the database', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/ready' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ status: 'ready', role: 'all', jobs: { state: 'running', working: true } })
  })

  it('serves the OpenAPI document generated from the route schemas, and its page', async () => {
    const json = await t.app.inject({ method: 'GET', url: '/api/docs/json' })
    expect(json.statusCode).toBe(200)
    const doc = json.json()
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/auth/login', '/api/users/{id}/status', '/api/logs/navigation']),
    )
    const page = await t.app.inject({ method: 'GET', url: '/api/docs' })
    expect([200, 302]).toContain(page.statusCode)
  })

  it('logs one line per request with method, path, status and time', async () => {
    const lines: string[] = []
    const logged = await buildTestApp({
      logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) } },
    })
    await logged.app.inject({ method: 'GET', url: '/api/health' })
    await logged.app.inject({ method: 'GET', url: '/api/nothing-here' })
    await logged.close()
    const requests = lines.map((line) => JSON.parse(line)).filter((entry) => entry.req)
    expect(requests.map((r) => [r.msg, r.req.method, r.req.url, r.res.statusCode])).toEqual([
      ['request completed', 'GET', '/api/health', 200],
      ['request completed', 'GET', '/api/nothing-here', 404],
    ])
    expect(requests.every((r) => typeof r.responseTime === 'number')).toBe(true)
  })

  it('every registered route declares a permission or public', () => {
    expect(t.app.undeclaredRoutes()).toEqual([])
  })
})

describe('security headers', () => {
  it.each([
    ['2xx', '/api/health', 200],
    ['4xx', '/api/users', 401],
    ['404', '/api/nope', 404],
  ])('are set on %s responses', async (_label, url, status) => {
    const res = await t.app.inject({ method: 'GET', url })
    expect(res.statusCode).toBe(status)
    const csp = String(res.headers['content-security-policy'])
    expect(csp).toContain("script-src 'self'")
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/)
    expect(csp).toContain("object-src 'none'")
    expect(csp).toContain("base-uri 'none'")
    expect(csp).toContain("frame-ancestors 'none'")
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin')
    expect(res.headers['x-powered-by']).toBeUndefined()
    expect(res.headers['access-control-allow-origin']).toBeUndefined()
  })
})

describe('the web app and unknown paths', () => {
  it('answers index.html for a browser route and JSON 404 for an unknown API path', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/dispatches/123' })
    expect(page.statusCode).toBe(200)
    expect(page.body).toContain('<div id="root">')
    const api = await t.app.inject({ method: 'GET', url: '/api/does-not-exist' })
    expect(api.statusCode).toBe(404)
    expect(api.json()).toEqual({ code: 'NOT_FOUND', message: 'Not found.' })
  })

  it('caches hashed assets for a year', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['cache-control']).toContain('immutable')
  })

  it('sends the build’s brotli copy of an asset to a browser that accepts it, else the file', async () => {
    const url = '/assets/app-abc123.js'
    const br = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } })
    expect(br.statusCode).toBe(200)
    expect(br.headers['content-encoding']).toBe('br')
    expect(br.headers.vary).toContain('accept-encoding')
    expect(br.headers['cache-control']).toContain('immutable')
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe('console.log(1)')
    const plain = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } })
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.body).toBe('console.log(1)')
  })
})

describe('bad input', () => {
  it('refuses a body over the size limit with 413 JSON', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'a@b.c', password: 'x'.repeat(2 * 1024 * 1024) },
    })
    expect(res.statusCode).toBe(413)
    expect(res.json().message).toBe('The request body is too large.')
  })

  it('refuses malformed JSON with 400 JSON', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    })
    expect(res.statusCode).toBe(400)
    expect(typeof res.json().message).toBe('string')
  })
})
