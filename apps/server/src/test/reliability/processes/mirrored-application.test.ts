import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CourseListResponse } from '@portal/shared'
import type { Simulator } from '@portal/scorm-cloud-sim'
import { newPglite } from '../../../db/client'
import { startTestSimulator } from '../../../modules/sync/sync.test-support'
import { call, eventually, signIn, simulatorEnv, startServer } from './server-process'

/**
 * Reliability suite: the real server on embedded PGlite, restarted on one DATA_DIR with another
 * SCORM Cloud application, then without credentials (demo mode). Either would sync another
 * application into the mirror (whose full listings mark the rest removed), and demo mode would
 * add the demo accounts, whose password is published. Both stop at start-up with exit code 1
 * and a message; the database is left as it was.
 */
let sim: Simulator
let dataDir: string
beforeAll(async () => {
  sim = await startTestSimulator()
  dataDir = mkdtempSync(path.join(tmpdir(), 'portal-mirrored-application-'))
})
afterAll(async () => {
  await sim?.close()
  rmSync(dataDir, { recursive: true, force: true })
})

const refusal = (env: Record<string, string>) =>
  startServer({ DATA_DIR: dataDir, ...env }).then(
    (server) => server.stop().then(() => 'started'),
    (error: Error) => error.message,
  )

describe('a database that mirrors one SCORM Cloud application', () => {
  it('refuses a start with another application or in demo mode, and adds no demo accounts', async () => {
    const first = await startServer({ DATA_DIR: dataDir, ...simulatorEnv(sim) })
    const catalogue = async (base: string, token: string) =>
      (await call<CourseListResponse>(base, 'GET', '/api/dispatches/courses', { token })).body
    const firstToken = (await signIn(first.url)).accessToken
    // The start-up sync runs as a job after the server listens: wait for its courses.
    expect(await eventually(async () => (await catalogue(first.url, firstToken)).lastSyncedAt !== null)).toBe(true)
    const courses = (await catalogue(first.url, firstToken)).courses.length
    expect(courses).toBeGreaterThan(0)
    expect(await first.stop(10_000)).toBe(0)

    const other = await refusal({ ...simulatorEnv(sim), SCORM_CLOUD_APP_ID: 'another-application' })
    expect(other).toMatch(/^server exited \(1\) before listening/)
    expect(other).toContain('SCORM_CLOUD_APP_ID differs from the SCORM Cloud application this database mirrors')
    expect(other).not.toMatch(/\n\s+at /)

    // No SCORM Cloud settings at all: demo mode, with its own simulator.
    const demo = await refusal({})
    expect(demo).toMatch(/^server exited \(1\) before listening/)
    expect(demo).toContain('This server has no SCORM Cloud credentials (demo mode), but its database mirrors')
    expect(demo).toContain('"Moving to another SCORM Cloud application" in docs/scaling.md')

    // The right application starts again on the same data: the catalogue is whole, and the demo
    // admin was never added.
    const wholeWithoutDemoAdmin = async () => {
      const again = await startServer({ DATA_DIR: dataDir, ...simulatorEnv(sim) })
      try {
        const token = (await signIn(again.url)).accessToken
        expect((await catalogue(again.url, token)).courses).toHaveLength(courses)
        const demoAdmin = await call(again.url, 'POST', '/api/auth/login', {
          body: { email: 'admin@demo.local', password: 'demo-portal-pass' },
        })
        expect(demoAdmin.status).toBe(401)
      } finally {
        expect(await again.stop(10_000)).toBe(0)
      }
    }
    await wholeWithoutDemoAdmin()

    // A database used before the application was recorded has no record (removed here, with no
    // server running, to make one): it holds accounts of its own, so demo mode is still refused.
    const pglite = newPglite(path.join(dataDir, 'pglite'))
    await pglite.query(`delete from secret_fingerprint where name = 'SCORM_CLOUD_APP_ID'`)
    await pglite.close()
    const older = await refusal({})
    expect(older).toMatch(/^server exited \(1\) before listening/)
    expect(older).toContain('This server has no SCORM Cloud credentials (demo mode), but its database mirrors')
    await wholeWithoutDemoAdmin()
  })
})
