import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { desc } from 'drizzle-orm'
import type { Simulator } from '@portal/scorm-cloud-sim'
import { activityLog, company, course } from '../../db/schema'
import { buildTestApp, testConfig, type TestContext } from '../../test/helpers'
import { runStartupSync } from './sync.scheduler'
import { SYNC_LOCK_KEY } from './sync.service'
import { startTestSimulator, syncRuns } from './sync.test-support'
import { appParts } from '../../app'

const ROUTES = ['/api/dispatches/courses/sync', '/api/admin/companies/sync', '/api/admin/sync/status']

let sim: Simulator
let t: TestContext
let admin: Awaited<ReturnType<TestContext['loginAs']>>
beforeAll(async () => {
  sim = await startTestSimulator()
  t = await buildTestApp({
    config: testConfig({
      scormCloud: { baseUrl: sim.url, appId: sim.appId, secretKey: sim.secretKey },
      demoMode: false,
      // The admin signs in with a password alone here (no second factor by default).
      mfaDefaultRoles: [],
    }),
  })
  admin = await t.loginAs('admin')
})
afterAll(async () => {
  await t.close()
  await sim.close()
})

const get = (url: string, headers: Record<string, string> = admin.headers) =>
  t.app.inject({ method: 'GET', url, headers })
const lastActivity = async () =>
  (await t.database.db.select().from(activityLog).orderBy(desc(activityLog.id)).limit(1))[0]

describe('access', () => {
  it('refuses sales, internal and client (403) and a missing token (401)', async () => {
    for (const role of ['sales', 'internal', 'client'] as const) {
      const { headers } = await t.loginAs(role)
      for (const url of ROUTES) expect((await get(url, headers)).statusCode, `${role} ${url}`).toBe(403)
    }
    for (const url of ROUTES) expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401)
    expect(await syncRuns(t.database.db)).toHaveLength(0)
  })
})

describe('GET /api/dispatches/courses/sync', () => {
  it('runs a full courses sync for an admin, answers with the course count and logs COURSES_SYNCED', async () => {
    const res = await get('/api/dispatches/courses/sync')
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({
      success: true,
      message: 'Courses synced successfully',
      courseCount: sim.data.counts().courses,
    })
    expect(await t.database.db.select().from(course)).toHaveLength(sim.data.counts().courses)
    expect(await lastActivity()).toMatchObject({
      action: 'COURSES_SYNCED',
      userId: admin.user.id,
      actorEmail: admin.user.email,
      ipAddress: '127.0.0.1',
      details: { created: sim.data.counts().courses, updated: 0, courseCount: sim.data.counts().courses },
    })
  })
})

describe('GET /api/admin/companies/sync', () => {
  it('runs a full destinations sync and answers created, updated, skipped, errors', async () => {
    const res = await get('/api/admin/companies/sync')
    expect(res.statusCode).toBe(200)
    // The client user of the access test brought a local company-a, unknown upstream: marked removed.
    expect(res.json()).toEqual({ created: sim.data.counts().destinations, updated: 1, skipped: 0, errors: 0 })
    const rows = await t.database.db.select().from(company)
    expect(rows.filter((c) => !c.removedAt)).toHaveLength(sim.data.counts().destinations)
    expect(rows.find((c) => c.id === 'company-a')?.removedAt).toBeInstanceOf(Date)
    expect(await lastActivity()).toMatchObject({ action: 'COMPANIES_SYNCED', userId: admin.user.id })
    const again = await get('/api/admin/companies/sync')
    expect(again.json()).toEqual({ created: 0, updated: 0, skipped: sim.data.counts().destinations, errors: 0 })
  })
})

describe('GET /api/admin/sync/status', () => {
  it('reports the last run per kind and the provider state without calling SCORM Cloud', async () => {
    const calls = sim.stats().total
    const res = await get('/api/admin/sync/status')
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(body.runs.courses).toMatchObject({ kind: 'courses', trigger: 'manual', status: 'succeeded', errors: 0 })
    expect(body.runs.dispatches).toBeNull()
    expect(body.scormCloud).toEqual({ reachable: true, circuit: 'closed', lastError: null })
    expect(Date.parse(body.lastSuccessfulSyncAt)).not.toBeNaN()
    expect(sim.stats().total).toBe(calls)
  })
})

describe('start-up sync', () => {
  it('runs every kind through app.sync', async () => {
    const outcome = await runStartupSync(appParts(t.app).sync, t.app.log)
    expect(outcome?.ok).toBe(true)
    expect(outcome?.results.map((r) => r.kind)).toEqual(['courses', 'destinations', 'dispatches', 'registrations'])
  })
})

describe('failures', () => {
  it('answers 409 when another server process is syncing, and logs the failure', async () => {
    const lock = await t.database.tryLock(SYNC_LOCK_KEY)
    try {
      const res = await get('/api/admin/companies/sync')
      expect(res.statusCode).toBe(409)
      expect(res.json()).toMatchObject({ code: 'CONFLICT', message: 'A sync is already running.' })
    } finally {
      await lock!.release()
    }
    expect(await lastActivity()).toMatchObject({ action: 'COMPANIES_SYNC_FAILED' })
  })

  it('answers 502 with the provider message when SCORM Cloud is down, logs it, and keeps the mirror', async () => {
    await sim.stop()
    try {
      const res = await get('/api/dispatches/courses/sync')
      expect(res.statusCode).toBe(502)
      expect(res.json()).toEqual({ code: 'UPSTREAM_FAILED', message: 'SCORM Cloud could not be reached.' })
      expect(await lastActivity()).toMatchObject({
        action: 'COURSES_SYNC_FAILED',
        userId: admin.user.id,
        details: { error: 'SCORM Cloud could not be reached.' },
      })
      const companies = await get('/api/admin/companies/sync')
      expect(companies.statusCode).toBe(502)
      expect(companies.json().code).toBe('UPSTREAM_FAILED')
      expect(await lastActivity()).toMatchObject({ action: 'COMPANIES_SYNC_FAILED' })
      expect(await t.database.db.select().from(course)).toHaveLength(sim.data.counts().courses)
      const status = (await get('/api/admin/sync/status')).json()
      expect(status.scormCloud.reachable).toBe(false)
      expect(status.scormCloud.lastError).toBeTruthy()
      expect(status.runs.courses.status).toBe('failed')
    } finally {
      await sim.start()
    }
  })
})

describe('without SCORM Cloud credentials', () => {
  it('keeps the routes and answers 503 NOT_READY', async () => {
    const bare = await buildTestApp()
    try {
      const { headers } = await bare.loginAs('admin')
      for (const url of ROUTES) {
        const res = await bare.app.inject({ method: 'GET', url, headers })
        expect(res.statusCode, url).toBe(503)
        expect(res.json()).toEqual({ code: 'NOT_READY', message: 'SCORM Cloud is not configured.' })
      }
      expect(appParts(bare.app).sync).toBeNull()
      expect(await runStartupSync(appParts(bare.app).sync, bare.app.log)).toBeNull()
    } finally {
      await bare.close()
    }
  })
})
