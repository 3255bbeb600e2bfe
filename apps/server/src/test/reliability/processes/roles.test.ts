import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Simulator } from '@portal/scorm-cloud-sim'
import { startTestSimulator } from '../../../modules/sync/sync.test-support'
import {
  call,
  createPgDatabase,
  eventually,
  signIn,
  simulatorEnv,
  startServer,
  startupSynced,
  type PgDatabase,
  type ServerProcess,
} from './server-process'

/**
 * Reliability suite: PORTAL_ROLE. A `web` node and a `worker` node on one PostgreSQL: the web
 * node serves the API and sends jobs, the worker runs them (the start-up sync the web node sent,
 * the alert evaluation of a postback it stored) and answers only its health. Embedded PGlite
 * refuses `worker` with its message.
 */
interface JobsAnswer {
  queues: { name: string; counts: Record<string, number> }[]
}

describe.runIf(Boolean(process.env.TEST_DATABASE_URL))('a web node and a worker node on one PostgreSQL', () => {
  let sim: Simulator
  let pgdb: PgDatabase
  let web: ServerProcess
  let worker: ServerProcess
  beforeAll(async () => {
    sim = await startTestSimulator()
    pgdb = await createPgDatabase()
    const env = { DATABASE_URL: pgdb.url, ...simulatorEnv(sim) }
    worker = await startServer({ ...env, PORTAL_ROLE: 'worker' })
    web = await startServer({ ...env, PORTAL_ROLE: 'web' })
  })
  afterAll(async () => {
    await Promise.all([web?.stop(10_000), worker?.stop(10_000)])
    await pgdb?.drop()
    await sim?.close()
  })

  it('each says its role, database and job engine', async () => {
    expect(await call(web.url, 'GET', '/api/health')).toEqual({
      status: 200,
      body: { status: 'ok', role: 'web', database: 'postgres', jobs: { state: 'running', working: false } },
    })
    expect(await call(worker.url, 'GET', '/api/health/ready')).toMatchObject({
      status: 200,
      body: { status: 'ready', role: 'worker', database: 'postgres', jobs: { state: 'running', working: true } },
    })
  })

  it('the worker serves nothing but its health', async () => {
    const login = await call(worker.url, 'POST', '/api/auth/login', { body: { email: 'a@b.test', password: 'x' } })
    expect(login.status).toBe(404)
    expect(JSON.stringify(login.body)).toContain('PORTAL_ROLE=worker')
  })

  it('the worker runs the jobs the web node sends: its start-up sync, then the alert evaluation', async () => {
    const { accessToken } = await signIn(web.url)
    expect(await startupSynced(web.url, accessToken), worker.output() + web.output()).toBe(true)
    const counts = async (name: string) => {
      const res = await call<JobsAnswer>(web.url, 'GET', '/api/admin/jobs', { token: accessToken })
      return res.body.queues.find((q) => q.name === name)?.counts ?? {}
    }
    expect(await eventually(async () => ((await counts('sync')).completed ?? 0) >= 1)).toBe(true)
    // A sync run ends with an alert evaluation: sent by the worker that synced, run there.
    expect(await eventually(async () => ((await counts('alerts-evaluate')).completed ?? 0) >= 1)).toBe(true)
    expect(web.output()).not.toMatch(/job failed/)
  })
})

describe('embedded PGlite', () => {
  it.each(['worker', 'web'])('refuses PORTAL_ROLE=%s at start-up with its message', async (role) => {
    const failure = await startServer({ PORTAL_ROLE: role, DATA_DIR: `/tmp/portal-role-${role}-${process.pid}` }).then(
      () => null,
      (error: Error) => error.message,
    )
    expect(failure).toMatch(/^server exited \(1\) before listening/)
    expect(failure).toContain(
      'Invalid configuration: PORTAL_ROLE must be all with the embedded PGlite database, which only one process can open',
    )
    expect(failure).not.toMatch(/\n\s+at /)
  })
})
