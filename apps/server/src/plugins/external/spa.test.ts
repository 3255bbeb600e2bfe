import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { buildTestApp, testConfig, type TestContext } from '../../test/helpers'

/**
 * The served web build never hands out source maps, even when a build made them beside the
 * scripts (`vite build --sourcemap`), and a missing asset is a 404, not the app's page.
 */
let t: TestContext
let dist: string
beforeAll(async () => {
  dist = mkdtempSync(path.join(tmpdir(), 'portal-dist-'))
  mkdirSync(path.join(dist, 'assets'))
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Portal</title><div id="root"></div>')
  writeFileSync(
    path.join(dist, 'assets', 'index-abc123.js'),
    'console.log(1)\n//# sourceMappingURL=index-abc123.js.map',
  )
  writeFileSync(path.join(dist, 'assets', 'index-abc123.js.map'), '{"version":3,"sources":["../src/main.tsx"]}')
  writeFileSync(path.join(dist, 'assets', 'index-abc123.css.map'), '{"version":3,"sources":["../src/index.css"]}')
  t = await buildTestApp({ config: testConfig({ webDistDir: dist }) })
})
afterAll(async () => {
  await t.close()
  rmSync(dist, { recursive: true, force: true })
})

describe('source maps and missing assets', () => {
  it('answers 404 JSON for a source map that lies in the build, and serves the script itself', async () => {
    for (const url of ['/assets/index-abc123.js.map', '/assets/index-abc123.css.map']) {
      for (const method of ['GET', 'HEAD'] as const) {
        const res = await t.app.inject({ method, url })
        expect(res.statusCode, `${method} ${url}`).toBe(404)
        expect(res.body).not.toContain('sources')
      }
      const res = await t.app.inject({ method: 'GET', url })
      expect(res.json()).toEqual({ code: 'NOT_FOUND', message: 'Not found.' })
    }
    const script = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js' })
    expect(script.statusCode).toBe(200)
    expect(script.headers['content-type']).toContain('javascript')
  })

  it('answers 404 JSON for an asset the build does not hold, and the page for a browser route', async () => {
    const missing = await t.app.inject({ method: 'GET', url: '/assets/gone-old123.js' })
    expect(missing.statusCode).toBe(404)
    expect(missing.json()).toEqual({ code: 'NOT_FOUND', message: 'Not found.' })
    const page = await t.app.inject({ method: 'GET', url: '/dispatches/abc' })
    expect(page.statusCode).toBe(200)
    expect(page.body).toContain('<div id="root">')
  })

  it('answers HEAD of a browser route as GET, without the page, and HEAD of an unknown API path with 404', async () => {
    const get = await t.app.inject({ method: 'GET', url: '/login' })
    const head = await t.app.inject({ method: 'HEAD', url: '/login' })
    expect(head.statusCode).toBe(200)
    expect(head.headers['content-type']).toBe(get.headers['content-type'])
    expect(head.headers['content-type']).toContain('text/html')
    expect(head.headers['cache-control']).toBe('no-cache')
    expect(head.body).toBe('')
    const api = await t.app.inject({ method: 'HEAD', url: '/api/no-such-thing' })
    expect(api.statusCode).toBe(404)
  })
})
