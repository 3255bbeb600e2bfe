import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import path from 'node:path'
import pg from 'pg'

/**
 * Runs the real server (apps/server/src/server.ts under tsx) as a child process, the way
 * `npm start` does, for the reliability suite's long parts (`npm run test:resilience`).
 */
const SERVER_ENTRY = path.resolve(import.meta.dirname, '../../../server.ts')

export const ADMIN = { email: 'reliability-admin@example.test', password: 'reliability-admin-passphrase-7' }
/** Shared by every process of one test, like a real deployment's JWT_SECRET. */
export const JWT_SECRET = randomBytes(32).toString('base64url')

export interface ServerProcess {
  url: string
  child: ChildProcess
  /** Everything the process wrote, for diagnostics and log checks. */
  output(): string
  /** Resolves with the exit code (or signal name) when the process ends. */
  exited: Promise<number | string>
  /** SIGTERM, then waits for the exit (SIGKILL after `killAfterMs`). */
  stop(killAfterMs?: number): Promise<number | string>
}

/** The environment that points a server process at the test simulator instead of SCORM Cloud. */
export const simulatorEnv = (sim: { appId: string; secretKey: string; url: string }) => ({
  SCORM_CLOUD_APP_ID: sim.appId,
  SCORM_CLOUD_SECRET_KEY: sim.secretKey,
  SCORM_CLOUD_BASE_URL: sim.url,
})

export async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER_ENTRY], {
    cwd: path.resolve(import.meta.dirname, '../../../..'),
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: process.env.RELIABILITY_LOG_LEVEL ?? 'warn',
      // These servers are not in demo mode; their admins sign in with a password alone.
      MFA_DEFAULT_ROLES: 'none',
      JWT_SECRET,
      POSTBACK_PASSWORD: 'reliability-postback-secret',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      SYNC_INTERVAL_MINUTES: '0',
      WEB_DIST_DIR: '/nonexistent',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()))
  child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()))
  const exited = new Promise<number | string>((resolve) => {
    child.on('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'))
  })
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in 90 s:\n${out}`)), 90_000)
    const check = () => {
      const match = /running at (http:\/\/[\d.]+:\d+)/.exec(out)
      if (match) {
        clearTimeout(timer)
        child.stdout!.off('data', check)
        resolve(match[1]!)
      }
    }
    child.stdout!.on('data', check)
    void exited.then((code) => {
      clearTimeout(timer)
      reject(new Error(`server exited (${code}) before listening:\n${out}`))
    })
  })
  return {
    url,
    child,
    output: () => out,
    exited,
    async stop(killAfterMs = 15_000) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs)
      const code = await exited
      clearTimeout(timer)
      return code
    },
  }
}

export interface Answer<T = unknown> {
  status: number
  body: T
}

/** fetch with JSON in and out; a refused or reset connection answers status 0. */
export async function call<T = Record<string, unknown>>(
  base: string,
  method: string,
  url: string,
  options: { token?: string; body?: unknown } = {},
): Promise<Answer<T>> {
  try {
    const res = await fetch(base + url, {
      method,
      headers: {
        ...(options.token ? { 'x-auth-token': options.token } : {}),
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(30_000),
    })
    const text = await res.text()
    return { status: res.status, body: (text ? JSON.parse(text) : null) as T }
  } catch {
    return { status: 0, body: null as T }
  }
}

export async function signIn(base: string, email = ADMIN.email, password = ADMIN.password) {
  const res = await call<{ accessToken: string; refreshToken: string }>(base, 'POST', '/api/auth/login', {
    body: { email, password },
  })
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body
}

/** Polls until `check` holds (bounded); returns whether it did. Not a timing assertion. */
export async function eventually(check: () => Promise<boolean>, timeoutMs = 30_000, stepMs = 200) {
  const end = Date.now() + timeoutMs
  while (Date.now() < end) {
    if (await check()) return true
    await new Promise((resolve) => setTimeout(resolve, stepMs))
  }
  return check()
}

/** A dedicated database on the local PostgreSQL, dropped by `drop()`. */
export async function createPgDatabase(prefix = 'portal_resilience') {
  const adminUrl = process.env.TEST_DATABASE_URL
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is required for this part of the reliability suite')
  const name = `${prefix}_${randomBytes(4).toString('hex')}`
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  await admin.query(`create database ${name}`)
  const target = new URL(adminUrl)
  target.pathname = `/${name}`
  return {
    name,
    url: target.toString(),
    /** Runs SQL on the maintenance connection (not inside the test database). */
    query: (text: string, values?: unknown[]) => admin.query(text, values),
    /** Ends every connection the servers hold to the test database. */
    async terminateConnections() {
      const res = await admin.query(
        'select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [name],
      )
      return (res.rows[0] as { n: number }).n
    },
    async drop() {
      await admin.query(`drop database if exists ${name} with (force)`)
      await admin.end()
    },
  }
}
export type PgDatabase = Awaited<ReturnType<typeof createPgDatabase>>

/** The start-up sync runs in the background with real credentials: waits until it has ended well. */
export async function startupSynced(base: string, token: string): Promise<boolean> {
  return eventually(async () => {
    const res = await call<{ runs?: { registrations?: { status: string } | null } }>(
      base,
      'GET',
      '/api/admin/sync/status',
      { token },
    )
    return res.status === 200 && res.body.runs?.registrations?.status === 'succeeded'
  }, 60_000)
}
