import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq, ne } from 'drizzle-orm'
import type { Simulator } from '@portal/scorm-cloud-sim'
import { createDatabase } from '../../../db/client'
import { activityLog, appUser } from '../../../db/schema'
import { startTestSimulator } from '../../../modules/sync/sync.test-support'
import {
  call,
  eventually,
  signIn,
  simulatorEnv,
  startServer,
  startupSynced,
  type Answer,
  type ServerProcess,
} from './server-process'

/**
 * Reliability suite, part 4: SIGTERM while the real server is under load. Requests in
 * flight finish; new ones are refused (503, or connection refused once the socket is closed);
 * the process exits by itself within close-with-grace's 10 s; every committed change, read
 * back from the embedded database afterwards, has its activity row.
 */
let sim: Simulator
let dataDir: string
let server: ServerProcess
let token: string

beforeAll(async () => {
  sim = await startTestSimulator()
  dataDir = mkdtempSync(path.join(tmpdir(), 'portal-sigterm-'))
  server = await startServer({
    DATA_DIR: dataDir,
    ...simulatorEnv(sim),
  })
  token = (await signIn(server.url)).accessToken
  expect(await startupSynced(server.url, token), server.output()).toBe(true)
})
afterAll(async () => {
  await server?.stop(5_000)
  await sim?.close()
  rmSync(dataDir, { recursive: true, force: true })
})

describe('SIGTERM under load', () => {
  it('finishes requests in flight, refuses new ones, exits within 10 s and loses no activity row', async () => {
    const ids = sim.data.listDispatchIds().slice(0, 3)
    // Edits that are surely in flight when the signal arrives: SCORM Cloud holds each call 1.5 s.
    sim.setFaults({ latencyMs: 1_500, onlyPaths: ['/dispatch/dispatches/'] })
    const inFlight = ids.map((id, i) =>
      call(server.url, 'PUT', `/api/dispatches/${id}`, { token, body: { notes: `In flight ${i}` } }),
    )
    // A stream of writes (user creates, each with its argon2 hash) and reads alongside.
    let streaming = true
    const stream: { email: string; answer: Answer }[] = []
    const reads: Answer[] = []
    const worker = async (w: number) => {
      for (let i = 0; streaming; i++) {
        const email = `load-${w}-${i}@example.test`
        const [answer, read] = await Promise.all([
          call(server.url, 'POST', '/api/users', {
            token,
            body: { email, password: 'a-long-unusual-passphrase-42', role: 'internal' },
          }),
          call(server.url, 'GET', '/api/dispatches', { token }),
        ])
        stream.push({ email, answer })
        reads.push(read)
        if (answer.status === 0) break // the server is gone
      }
    }
    const workers = [0, 1, 2, 3].map(worker)
    const received = () => Object.entries(sim.stats().byPath).filter(([p]) => p.startsWith('PUT ')).length
    expect(await eventually(async () => received() === ids.length && stream.length >= 4, 30_000, 20)).toBe(true)

    server.child.kill('SIGTERM')
    const exitCode = server.stop(10_000) // SIGKILL after 10 s would show as 'SIGKILL'
    // Once the server has begun closing, and while the edits are still held upstream, new
    // requests are refused: 503 on a kept-alive connection, or connection refused.
    expect(await eventually(async () => (await call(server.url, 'GET', '/api/ready')).status !== 200, 10_000, 20)).toBe(
      true,
    )
    const late = await call(server.url, 'GET', '/api/dispatches', { token })
    expect([0, 503]).toContain(late.status)

    const edits = await Promise.all(inFlight)
    expect(edits.map((e) => e.status)).toEqual([200, 200, 200])
    expect(edits.map((e) => (e.body as { notes?: string }).notes)).toEqual([
      'In flight 0',
      'In flight 1',
      'In flight 2',
    ])
    expect(await exitCode, server.output()).toBe(0)
    streaming = false
    await Promise.all(workers)
    sim.clearFaults()

    // Writes answered before and during the shutdown: done, refused, or cut off; never a 500.
    for (const { answer } of stream) expect([201, 503, 0]).toContain(answer.status)
    for (const answer of reads) expect([200, 503, 0]).toContain(answer.status)
    const created = stream.filter((s) => s.answer.status === 201).map((s) => s.email)
    expect(created.length).toBeGreaterThan(0)

    const database = await createDatabase({ dataDir: path.join(dataDir, 'pglite') })
    try {
      const db = database.db
      const users = await db.select().from(appUser).where(ne(appUser.role, 'admin'))
      const rows = await db.select().from(activityLog).where(eq(activityLog.action, 'ADMIN_USER_CREATED'))
      // Every user answered 201 was committed, and every committed user has exactly one row.
      expect(users.map((u) => u.email)).toEqual(expect.arrayContaining(created))
      expect(rows.map((r) => (r.details as { userId: string }).userId).sort()).toEqual(users.map((u) => u.id).sort())
      const dispatchRows = await db.select().from(activityLog).where(eq(activityLog.action, 'DISPATCH_UPDATED'))
      expect(dispatchRows.map((r) => (r.details as { dispatchId: string }).dispatchId).sort()).toEqual([...ids].sort())
    } finally {
      await database.close()
    }
  })
})
