import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { appParts } from '../../app'
import { usingPostgres } from '../../test/test-database'
import { buildTestApp, testConfig, type TestContext } from '../../test/helpers'

const kind = usingPostgres() ? 'postgres' : 'pglite'

describe('PORTAL_ROLE=worker', () => {
  let t: TestContext
  beforeAll(async () => {
    t = await buildTestApp({ config: testConfig({ role: 'worker' }) })
  })
  afterAll(async () => t?.close())

  it('says its role, database and job engine on /api/health and its readiness endpoints', async () => {
    const health = await t.app.inject({ method: 'GET', url: '/api/health' })
    expect(health.json()).toEqual({
      status: 'ok',
      role: 'worker',
      database: kind,
      jobs: { state: 'running', working: true },
    })
    for (const url of ['/api/ready', '/api/health/ready']) {
      const ready = await t.app.inject({ method: 'GET', url })
      expect(ready.statusCode).toBe(200)
      expect(ready.json()).toMatchObject({ status: 'ready', role: 'worker', database: kind })
    }
  })

  it('serves nothing else: the API, the sign-in and the web app are another node’s', async () => {
    for (const [method, url] of [
      ['GET', '/api/dispatches'],
      ['POST', '/api/auth/login'],
      ['GET', '/'],
      ['GET', '/api/docs/json'],
      ['GET', '/api/healthz'],
    ] as const) {
      const res = await t.app.inject({ method, url, payload: method === 'POST' ? {} : undefined })
      expect(res.statusCode, url).toBe(404)
      expect(res.json().message).toContain('PORTAL_ROLE=worker')
    }
  })

  it('runs jobs', async () => {
    expect(appParts(t.app).jobs.status()).toEqual({ state: 'running', working: true })
  })
})

describe('PORTAL_ROLE=web', () => {
  let t: TestContext
  beforeAll(async () => {
    t = await buildTestApp({ config: testConfig({ role: 'web' }) })
  })
  afterAll(async () => t?.close())

  it('serves the API and says it runs no jobs', async () => {
    const health = await t.app.inject({ method: 'GET', url: '/api/health' })
    expect(health.json()).toEqual({
      status: 'ok',
      role: 'web',
      database: kind,
      jobs: { state: 'running', working: false },
    })
    expect((await t.app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200)
    const { headers } = await t.loginAs('admin')
    expect((await t.app.inject({ method: 'GET', url: '/api/dispatches', headers })).statusCode).toBe(200)
  })

  it('sends jobs for the worker nodes but runs none itself', async () => {
    const jobs = appParts(t.app).jobs
    expect(await jobs.send('alerts-evaluate', {})).toEqual(expect.any(String))
    const overview = await t.app.inject({
      method: 'GET',
      url: '/api/admin/jobs',
      headers: (await t.loginAs('admin')).headers,
    })
    const queue = overview.json().queues.find((q: { name: string }) => q.name === 'alerts-evaluate')
    expect(queue.counts.created).toBe(1)
    expect(queue.schedules).toEqual([])
  })
})

describe('PORTAL_ROLE=all', () => {
  it('answers 503 on readiness while its job engine is not running', async () => {
    const t = await buildTestApp()
    try {
      await appParts(t.app).jobs.stop()
      const ready = await t.app.inject({ method: 'GET', url: '/api/health/ready' })
      expect(ready.statusCode).toBe(503)
      expect(ready.json()).toMatchObject({ status: 'job engine not running', role: 'all', jobs: { state: 'stopped' } })
      expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200)
    } finally {
      await t.close()
    }
  })
})
