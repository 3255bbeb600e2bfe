import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Simulator } from '@portal/scorm-cloud-sim'
import { startTestSimulator } from '../../../modules/sync/sync.test-support'
import {
  ADMIN,
  call,
  createPgDatabase,
  eventually,
  signIn,
  startServer,
  simulatorEnv,
  startupSynced,
  type PgDatabase,
  type ServerProcess,
} from './server-process'

/**
 * Reliability suite, part 3: the real server on PostgreSQL while its connections are
 * killed (pg_terminate_backend) and while the database is "stopped". Stopping the shared
 * PostgreSQL cluster would break other suites running on it, so a stop is simulated on a
 * dedicated database: every connection terminated and new ones refused
 * (ALTER DATABASE ... ALLOW_CONNECTIONS false, which holds for superusers too), then allowed again.
 */
let sim: Simulator
let pgdb: PgDatabase
let server: ServerProcess
let token: string

beforeAll(async () => {
  sim = await startTestSimulator()
  pgdb = await createPgDatabase()
  server = await startServer({
    DATABASE_URL: pgdb.url,
    ...simulatorEnv(sim),
  })
  token = (await signIn(server.url)).accessToken
  expect(await startupSynced(server.url, token), server.output()).toBe(true)
})
afterAll(async () => {
  await pgdb?.query(`alter database ${pgdb.name} allow_connections true`).catch(() => undefined)
  await server?.stop(5_000)
  await pgdb?.drop()
  await sim?.close()
})

const alive = () => server.child.exitCode === null && server.child.signalCode === null
/** What the browser calls: reads, a write, and sign-in. */
const calls = () =>
  Promise.all([
    call(server.url, 'GET', '/api/dispatches', { token }),
    call(server.url, 'GET', '/api/dispatches/courses', { token }),
    call(server.url, 'GET', '/api/admin/companies', { token }),
    call(server.url, 'POST', '/api/logs/navigation', { token, body: { pathname: '/dashboard' } }),
    call(server.url, 'POST', '/api/auth/login', { body: { email: ADMIN.email, password: ADMIN.password } }),
  ])

describe('PostgreSQL connections killed', () => {
  it('keeps the process up and answers from fresh connections', async () => {
    expect((await calls()).map((r) => r.status)).toEqual([200, 200, 200, 201, 200])
    expect(await pgdb.terminateConnections()).toBeGreaterThan(0)
    // Calls right after the kill: served from new connections, or a clean 503, never a 500.
    for (const res of await calls()) expect([200, 201, 503]).toContain(res.status)
    expect(alive()).toBe(true)
    expect(await eventually(async () => (await calls()).every((r) => r.status < 300))).toBe(true)
  })
})

describe('PostgreSQL stopped and started again', () => {
  it('answers 503 meanwhile, turns /api/ready 503 and back, and resumes by itself', async () => {
    await pgdb.query(`alter database ${pgdb.name} allow_connections false`)
    await pgdb.terminateConnections()

    const ready = await call(server.url, 'GET', '/api/ready')
    expect(ready).toEqual({
      status: 503,
      body: expect.objectContaining({ status: 'database unavailable', role: 'all' }),
    })
    for (const res of await calls()) {
      expect(res.status).toBe(503)
      expect(res.body).toEqual({ code: 'NOT_READY', message: 'The service is not ready. Please try again shortly.' })
    }
    expect((await call(server.url, 'GET', '/api/health')).status).toBe(200)
    expect(alive()).toBe(true)

    await pgdb.query(`alter database ${pgdb.name} allow_connections true`)
    expect(await eventually(async () => (await call(server.url, 'GET', '/api/ready')).status === 200)).toBe(true)
    // The same access token works again: nothing was lost with the connections.
    expect((await calls()).map((r) => r.status)).toEqual([200, 200, 200, 201, 200])
    expect(alive()).toBe(true)
  })
})
