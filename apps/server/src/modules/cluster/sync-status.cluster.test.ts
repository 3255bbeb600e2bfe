import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Simulator } from '@portal/scorm-cloud-sim'
import { buildApp } from '../../app'
import type { Database } from '../../db/client'
import { hashPassword } from '../../lib/passwords'
import { testConfig, TEST_PASSWORD } from '../../test/helpers'
import { createTestDatabase } from '../../test/test-database'
import { startTestSimulator } from '../sync/sync.test-support'
import { createUsersRepository } from '../users/users.repository'

/**
 * The sync status screen on two nodes of one database: the last SCORM Cloud error a sync met is
 * kept in the database, so the node that did not run the sync reports it too, and both clear it
 * after a sync that succeeds on either. (The circuit breaker is each node's own view of SCORM
 * Cloud and may differ.) PGlite and, with TEST_DATABASE_URL, PostgreSQL.
 */
let sim: Simulator
let database: Database
let a: FastifyInstance
let b: FastifyInstance
let headers: { 'x-auth-token': string }

beforeAll(async () => {
  sim = await startTestSimulator()
  database = await createTestDatabase()
  const config = testConfig({
    scormCloud: { baseUrl: sim.url, appId: sim.appId, secretKey: sim.secretKey },
    demoMode: false,
    mfaDefaultRoles: [],
  })
  a = await buildApp({ config, logger: false, jobs: { background: false }, database })
  b = await buildApp({ config, logger: false, jobs: { background: false }, database })
  // One after the other: the first node's start creates the job engine's tables, as on PostgreSQL.
  await a.ready()
  await b.ready()
  const email = 'sync-status-admin@example.test'
  await createUsersRepository(database.db).insert({
    email,
    username: 'sync-status-admin',
    name: null,
    passwordHash: await hashPassword(TEST_PASSWORD),
    role: 'admin',
    companyId: null,
  })
  const login = await a.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: TEST_PASSWORD } })
  headers = { 'x-auth-token': login.json<{ accessToken: string }>().accessToken }
})
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()])
  await database?.close()
  await sim?.close()
})

const lastError = async (node: FastifyInstance) =>
  (await node.inject({ method: 'GET', url: '/api/admin/sync/status', headers })).json<{
    scormCloud: { lastError: string | null }
  }>().scormCloud.lastError

describe('the sync status on two nodes', () => {
  it('reports the SCORM Cloud error of a sync run on A through B, and clears it on both after a good sync on B', async () => {
    await sim.stop()
    try {
      const failed = await a.inject({ method: 'GET', url: '/api/dispatches/courses/sync', headers })
      expect(failed.statusCode).toBe(502)
    } finally {
      await sim.start()
    }
    const onA = await lastError(a)
    expect(onA).toBeTruthy()
    expect(await lastError(b)).toBe(onA)

    const ok = await b.inject({ method: 'GET', url: '/api/dispatches/courses/sync', headers })
    expect(ok.statusCode).toBe(200)
    expect([await lastError(a), await lastError(b)]).toEqual([null, null])
  })
})
