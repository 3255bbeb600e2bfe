/**
 * The server under test: apps/server/src/server.ts itself in a child process (the real start-up
 * path: config, migrations, buildApp, listen), so its RSS can be read from /proc and the load
 * generator does not share its event loop. It points at the still-running simulator, so its
 * start-up incremental sync finds nothing new, exactly as in production.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { startTsChild, type StartedChild } from './child-process'
import { JWT_SECRET, POSTBACK_PASSWORD, settings } from './config'
import type { RunningSimulator } from './simulator'

export interface RunningServer {
  baseUrl: string
  pid: number
  logFile: string
  process: StartedChild
  stop(): Promise<void>
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo
      probe.close(() => resolve(port))
    })
  })
}

export async function startServer(
  target: { databaseUrl: string } | { dataDir: string },
  /** null: no SCORM Cloud settings, so demo mode with its own simulator and demo accounts. */
  sim: Pick<RunningSimulator, 'url' | 'appId' | 'secretKey'> | null,
  /** More of the server's environment (READ_CACHE, DATABASE_POOL_SIZE...). */
  extraEnv: Record<string, string> = {},
): Promise<RunningServer> {
  const port = await freePort()
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'portal-bench-server-'))
  const logFile = path.join(scratch, 'server.log')
  const env: Record<string, string> = {
    PORT: String(port),
    HOST: '127.0.0.1',
    JWT_SECRET,
    POSTBACK_PASSWORD,
    SCORM_CLOUD_APP_ID: sim?.appId ?? '',
    SCORM_CLOUD_SECRET_KEY: sim?.secretKey ?? '',
    SCORM_CLOUD_BASE_URL: sim?.url ?? '',
    SYNC_INTERVAL_MINUTES: '0',
    LOG_LEVEL: settings.serverLogLevel,
    NODE_ENV: 'production',
    // The bench's accounts sign in with a password alone, as its load measures reads, not second factors.
    MFA_DEFAULT_ROLES: 'none',
    ...extraEnv,
  }
  if ('databaseUrl' in target) {
    env.DATABASE_URL = target.databaseUrl
    env.DATA_DIR = scratch
    env.DATABASE_POOL_SIZE ??= String(settings.poolSize)
  } else {
    env.DATABASE_URL = ''
    env.DATA_DIR = target.dataDir
  }
  const child = startTsChild('apps/server/src/server.ts', [], {
    env,
    stdoutFile: logFile,
    nodeArgs: settings.serverProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${settings.serverProfileDir}`] : [],
  })
  const baseUrl = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 180_000
  for (;;) {
    if (child.child.exitCode !== null) throw new Error(`the server exited at start:\n${child.stderrTail()}`)
    const ready = await fetch(`${baseUrl}/api/ready`).then(
      (res) => res.ok,
      () => false,
    )
    if (ready) break
    if (Date.now() > deadline) throw new Error(`the server did not get ready:\n${child.stderrTail()}`)
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  // Let the start-up incremental sync (nothing new: well under a second) finish before measuring.
  await new Promise((resolve) => setTimeout(resolve, 2_000))
  return {
    baseUrl,
    pid: child.pid,
    logFile,
    process: child,
    async stop() {
      await child.stop()
      rmSync(scratch, { recursive: true, force: true })
    },
  }
}
