import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Simulator } from '@portal/scorm-cloud-sim'
import { startTestSimulator } from '../../../modules/sync/sync.test-support'
import {
  call,
  createPgDatabase,
  signIn,
  startServer,
  simulatorEnv,
  startupSynced,
  type PgDatabase,
  type ServerProcess,
} from './server-process'

/**
 * Reliability suite, part 6: two server processes on one PostgreSQL database, started
 * at the same moment (migrations, first admin and start-up sync race). A session begun on one
 * works on the other, including refresh; only one sync runs at a time across both.
 */
let sim: Simulator
let pgdb: PgDatabase
let a: ServerProcess
let b: ServerProcess

beforeAll(async () => {
  sim = await startTestSimulator()
  pgdb = await createPgDatabase()
  const env = {
    DATABASE_URL: pgdb.url,
    ...simulatorEnv(sim),
  }
  const [first, second] = await Promise.allSettled([startServer(env), startServer(env)])
  if (first.status === 'fulfilled') a = first.value
  if (second.status === 'fulfilled') b = second.value
  expect([first.status, second.status], [first, second].map(String).join('\n')).toEqual(['fulfilled', 'fulfilled'])
  const { accessToken } = await signIn(a.url)
  expect(await startupSynced(a.url, accessToken), a.output() + b.output()).toBe(true)
})
afterAll(async () => {
  await Promise.all([a?.stop(5_000), b?.stop(5_000)])
  await pgdb?.drop()
  await sim?.close()
})

describe('two server processes on one PostgreSQL', () => {
  it('share sessions: sign in on A, call B, refresh on B, use on A', async () => {
    const session = await signIn(a.url)
    const me = await call<{ email: string }>(b.url, 'GET', '/api/auth/me', { token: session.accessToken })
    expect(me.status).toBe(200)

    const refreshed = await call<{ accessToken: string; refreshToken: string }>(
      b.url,
      'POST',
      '/api/auth/refresh-token',
      {
        body: { refreshToken: session.refreshToken },
      },
    )
    expect(refreshed.status).toBe(200)
    const onA = await call(a.url, 'GET', '/api/dispatches', { token: refreshed.body.accessToken })
    expect(onA.status).toBe(200)

    // The spent refresh token is spent on both: reusing it on A ends the session everywhere.
    const reuse = await call(a.url, 'POST', '/api/auth/refresh-token', { body: { refreshToken: session.refreshToken } })
    expect(reuse.status).toBe(401)
    expect((await call(b.url, 'GET', '/api/auth/me', { token: refreshed.body.accessToken })).status).toBe(401)
  })

  it('runs one sync at a time: started on both at once, one runs and the other answers 409', async () => {
    const { accessToken } = await signIn(a.url)
    // SCORM Cloud answers course pages slowly, so the first sync surely holds the lock.
    sim.setFaults({ latencyMs: 700, onlyPaths: ['/courses'] })
    sim.resetStats()
    const answers = await Promise.all(
      [a, b].map((server) =>
        call<{ message?: string }>(server.url, 'GET', '/api/dispatches/courses/sync', { token: accessToken }),
      ),
    )
    sim.clearFaults()
    const byStatus = answers.map((r) => r.status).sort()
    expect(byStatus).toEqual([200, 409])
    expect(answers.find((r) => r.status === 409)!.body).toEqual({
      code: 'CONFLICT',
      message: 'A sync is already running.',
    })
    expect(answers.find((r) => r.status === 200)!.body).toMatchObject({ success: true })
    // The provider saw one run's course listing: each page once.
    const pages = Math.ceil(sim.data.counts().courses / sim.options.pageSize)
    expect(pages).toBeGreaterThan(1)
    expect(sim.stats().byPath['GET /courses']).toBe(pages)
  })
})
