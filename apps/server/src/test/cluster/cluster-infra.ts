import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import { SMTPServer } from 'smtp-server'

/**
 * The cluster test's moving parts (scripts/test-cluster.mjs): server nodes from the built server
 * (apps/server/dist, what `npm start` runs), HAProxy with deploy/haproxy/haproxy.cfg, and a real
 * SMTP receiver.
 */
const SERVER_DIR = path.resolve(import.meta.dirname, '../../..')
const HAPROXY_CONFIG = path.resolve(SERVER_DIR, '../../deploy/haproxy/haproxy.cfg')

export type Role = 'all' | 'web' | 'worker'

export interface Node {
  name: string
  role: Role
  port: number
  url: string
  /** Everything the current process wrote. */
  output(): string
  alive(): boolean
  /** The current process's id, while it runs (the bench reads its CPU time). */
  pid(): number | null
  start(): Promise<void>
  kill(signal: NodeJS.Signals): Promise<void>
  stop(): Promise<void>
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Polls until `check` holds (bounded); returns whether it did. */
export async function eventually(check: () => Promise<boolean>, timeoutMs: number, stepMs = 200): Promise<boolean> {
  const end = Date.now() + timeoutMs
  while (Date.now() < end) {
    if (await check().catch(() => false)) return true
    await pause(stepMs)
  }
  return check().catch(() => false)
}

const healthy = async (url: string) =>
  (await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2_000) }).catch(() => null))?.status === 200

export function createNode(name: string, role: Role, port: number, env: Record<string, string>): Node {
  let child: ChildProcess | null = null
  let out = ''
  let exited: Promise<unknown> = Promise.resolve()
  const url = `http://127.0.0.1:${port}`
  const node: Node = {
    name,
    role,
    port,
    url,
    output: () => out,
    alive: () => child !== null && child.exitCode === null && child.signalCode === null,
    pid: () => (node.alive() ? (child!.pid ?? null) : null),
    async start() {
      out = ''
      const proc = spawn(process.execPath, ['--enable-source-maps', 'dist/server.js'], {
        cwd: SERVER_DIR,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '/tmp',
          ...env,
          PORT: String(port),
          PORTAL_ROLE: role,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      child = proc
      proc.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()))
      proc.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()))
      exited = new Promise((resolve) => proc.on('exit', resolve))
      // A worker may serve only its health: the node is up once /api/health answers.
      const up = await eventually(async () => node.alive() && (await healthy(url)), 90_000, 250)
      if (!up) throw new Error(`${name} did not start:\n${out}`)
    },
    async kill(signal) {
      if (!node.alive()) return
      child!.kill(signal)
      await exited
    },
    async stop() {
      if (!node.alive()) return
      child!.kill('SIGTERM')
      const timer = setTimeout(() => child?.kill('SIGKILL'), 15_000)
      await exited
      clearTimeout(timer)
    },
  }
  return node
}

/** Runs a node process that is expected to refuse to start: its exit code and output. */
export async function startRefused(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const proc = spawn(process.execPath, ['dist/server.js'], {
    cwd: SERVER_DIR,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  proc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
  proc.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()))
  const timer = setTimeout(() => proc.kill('SIGKILL'), 60_000)
  const code = await new Promise<number | null>((resolve) => proc.on('exit', (c) => resolve(c)))
  clearTimeout(timer)
  return { code, output: out }
}

export interface Balancer {
  url: string
  /** Each server's state as HAProxy sees it (UP, DOWN, MAINT...), from its statistics CSV. */
  states(): Promise<Record<string, string>>
  stop(): Promise<void>
  output(): string
}

export async function startBalancer(
  port: number,
  statsPort: number,
  nodes: Pick<Node, 'port' | 'role'>[],
): Promise<Balancer> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    PORTAL_BALANCER_BIND: `127.0.0.1:${port}`,
    PORTAL_STATS_BIND: `127.0.0.1:${statsPort}`,
  }
  // The file names three servers: a node that serves no HTTP, or is not there, is `disabled`.
  for (let i = 0; i < 3; i++) {
    const node = nodes[i]
    env[`PORTAL_NODE${i + 1}`] = `127.0.0.1:${node?.port ?? 9}`
    env[`PORTAL_NODE${i + 1}_FLAGS`] = !node || node.role === 'worker' ? 'disabled' : ''
  }
  const proc = spawn('haproxy', ['-db', '-f', HAPROXY_CONFIG], { env, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  proc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
  proc.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()))
  const exited = new Promise((resolve) => proc.on('exit', resolve))
  const balancer: Balancer = {
    url: `http://127.0.0.1:${port}`,
    output: () => out,
    async states() {
      const res = await fetch(`http://127.0.0.1:${statsPort}/stats;csv`, { signal: AbortSignal.timeout(2_000) })
      const lines = (await res.text()).split('\n')
      const header = lines[0]!.replace(/^# /, '').split(',')
      const [px, sv, status] = ['pxname', 'svname', 'status'].map((h) => header.indexOf(h))
      const states: Record<string, string> = {}
      for (const line of lines.slice(1)) {
        const cells = line.split(',')
        if (cells[px!] === 'nodes' && cells[sv!]?.startsWith('node')) states[cells[sv!]!] = cells[status!]!
      }
      return states
    },
    async stop() {
      proc.kill('SIGTERM')
      await exited
    },
  }
  const ready = await eventually(async () => {
    const states = await balancer.states()
    return nodes.every((n, i) => n.role === 'worker' || states[`node${i + 1}`] === 'UP')
  }, 20_000)
  if (!ready) throw new Error(`HAProxy did not see the nodes up:\n${out}`)
  return balancer
}

export interface SmtpReceiver {
  url: string
  /** Message-ID and recipients of every accepted mail, in order. */
  received: Array<{ messageId: string; to: string[]; subject: string }>
  close(): Promise<void>
}

export async function startSmtpReceiver(port: number): Promise<SmtpReceiver> {
  const received: SmtpReceiver['received'] = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      let raw = ''
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString()))
      stream.on('end', () => {
        const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(raw)?.[1]?.trim() ?? ''
        received.push({
          messageId: header('Message-ID'),
          to: session.envelope.rcptTo.map((r) => r.address),
          subject: header('Subject'),
        })
        callback()
      })
    },
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => resolve())
  })
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
