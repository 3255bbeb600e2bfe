import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Simulator } from '@portal/scorm-cloud-sim'
import { startTestSimulator } from '../../../modules/sync/sync.test-support'
import { call, signIn, simulatorEnv, startServer } from './server-process'

/**
 * Reliability suite: the real server on embedded PGlite, with JWT_SECRET and
 * POSTBACK_PASSWORD both set (so no secrets file is written first), and a DATA_DIR that does not
 * exist: it used to die with "ENOENT mkdir …/pglite". It now creates the folder and starts; a
 * DATA_DIR that cannot be made stops start-up with exit code 1 and a message naming DATA_DIR.
 * The tests run as root, who may write anywhere, so "cannot be made" is a DATA_DIR under a file.
 */
let sim: Simulator
let root: string
beforeAll(async () => {
  sim = await startTestSimulator()
  root = mkdtempSync(path.join(tmpdir(), 'portal-data-dir-'))
})
afterAll(async () => {
  await sim?.close()
  rmSync(root, { recursive: true, force: true })
})

describe('start-up with embedded PGlite and both secrets set', () => {
  it('creates a DATA_DIR that does not exist and starts', async () => {
    const dataDir = path.join(root, 'not', 'made', 'yet')
    expect(existsSync(dataDir)).toBe(false)
    // startServer sets JWT_SECRET and POSTBACK_PASSWORD; no DATABASE_URL means PGlite.
    const server = await startServer({ DATA_DIR: dataDir, ...simulatorEnv(sim) })
    try {
      expect(statSync(path.join(dataDir, 'pglite')).isDirectory()).toBe(true)
      expect(await call(server.url, 'GET', '/api/ready')).toMatchObject({ status: 200 })
      await signIn(server.url)
      expect(server.output()).not.toMatch(/ENOENT/)
    } finally {
      expect(await server.stop(10_000)).toBe(0)
    }
  })

  it('stops with exit code 1 and a message naming DATA_DIR when the folder cannot be made', async () => {
    const file = path.join(root, 'a-file')
    writeFileSync(file, 'not a folder')
    const dataDir = path.join(file, 'data')
    const failure = await startServer({ DATA_DIR: dataDir, ...simulatorEnv(sim) }).then(
      () => null,
      (error: Error) => error.message,
    )
    expect(failure).toMatch(/^server exited \(1\) before listening/)
    expect(failure).toContain(
      `Invalid configuration: DATA_DIR must be a folder the server can create and write to: "${dataDir}" cannot be used`,
    )
    // A message, not a crash: no stack trace.
    expect(failure).not.toMatch(/\n\s+at /)
  })

  it('lets one server at a time open the embedded database, and takes over the lock of one that was killed', async () => {
    const dataDir = path.join(root, 'shared')
    const lock = path.join(dataDir, 'pglite.lock')
    const first = await startServer({ DATA_DIR: dataDir, ...simulatorEnv(sim) })
    let stopped = false
    try {
      expect(readFileSync(lock, 'utf8')).toBe(String(first.child.pid))
      // A second server on the same folder (another port) would write over the first one's pages.
      const second = await startServer({ DATA_DIR: dataDir, ...simulatorEnv(sim) }).then(
        (server) => server.stop().then(() => 'started'),
        (error: Error) => error.message,
      )
      expect(second).toMatch(/^server exited \(1\) before listening/)
      expect(second).toContain(
        `Invalid configuration: DATA_DIR is in use by another server process on this machine (process ${first.child.pid})`,
      )
      expect(second).not.toMatch(/\n\s+at /)
      // The first server goes on, its lock untouched.
      expect(await call(first.url, 'GET', '/api/ready')).toMatchObject({ status: 200 })
      expect(readFileSync(lock, 'utf8')).toBe(String(first.child.pid))
      expect(await first.stop(10_000)).toBe(0)
      stopped = true
      // Stopped, it leaves no lock behind.
      expect(existsSync(lock)).toBe(false)
    } finally {
      if (!stopped) await first.stop(10_000)
    }

    // A server killed outright leaves its lock; the next start finds its process gone and starts.
    const killed = await startServer({ DATA_DIR: dataDir, ...simulatorEnv(sim) })
    killed.child.kill('SIGKILL')
    expect(await killed.exited).toBe('SIGKILL')
    expect(readFileSync(lock, 'utf8')).toBe(String(killed.child.pid))
    const next = await startServer({ DATA_DIR: dataDir, ...simulatorEnv(sim) })
    try {
      expect(readFileSync(lock, 'utf8')).toBe(String(next.child.pid))
      await signIn(next.url)
    } finally {
      expect(await next.stop(10_000)).toBe(0)
    }
  })
})
