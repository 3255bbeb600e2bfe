/**
 * The HTTP side: base path /api/v2, faults first (a failing provider fails before it checks
 * credentials), then Basic auth, then the routes. stop()/start() close and reopen the same
 * port so tests can simulate the provider going away.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { Faults } from './faults'
import { HttpError, readJsonBody, sendReply, type Reply } from './http-util'
import { matchRoute, type Route, type SimContext } from './router'
import { LAUNCH_PATH, launchPage } from './routes-packages'
import { InvalidInputError } from './store'

export const BASE_PATH = '/api/v2'

export interface RequestStats {
  total: number
  /** `METHOD /path` relative to /api/v2, without query, e.g. `GET /dispatch/dispatches`. */
  byPath: Record<string, number>
  /** `METHOD pattern`, e.g. `GET /dispatch/dispatches/{dispatchId}` (unmatched paths are absent). */
  byRoute: Record<string, number>
  byStatus: Record<string, number>
  /** Binary answers (zips) whose client went away before the last byte. */
  streamsAborted: number
}

const emptyStats = (): RequestStats => ({ total: 0, byPath: {}, byRoute: {}, byStatus: {}, streamsAborted: 0 })
const bump = (map: Record<string, number>, key: string) => {
  map[key] = (map[key] ?? 0) + 1
}
const digest = (text: string) => createHash('sha256').update(text).digest()

export class SimHttpServer {
  private server: Server | null = null
  private counters = emptyStats()
  private port: number

  constructor(
    private readonly ctx: SimContext,
    private readonly faults: Faults,
    private readonly routes: readonly Route[],
  ) {
    this.port = ctx.options.port
  }

  get listening(): boolean {
    return this.server !== null
  }

  get boundPort(): number {
    return this.port
  }

  /** Listens on the configured port (0 = random) the first time, on the same port afterwards. */
  async start(): Promise<void> {
    if (this.server) return
    const server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        this.ctx.options.log(`request failed: ${String(error)}`)
        sendReply(res, { status: 500, body: { message: 'Internal error' } })
      })
    })
    server.keepAliveTimeout = 5_000
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(this.port, this.ctx.options.host, () => {
        server.off('error', reject)
        resolve()
      })
    })
    const address = server.address()
    if (address && typeof address === 'object') this.port = address.port
    this.server = server
  }

  /** Stops listening and drops open connections (keep-alive sockets, stalled requests). */
  async stop(): Promise<void> {
    const server = this.server
    if (!server) return
    this.server = null
    const closed = new Promise<void>((resolve) => server.close(() => resolve()))
    server.closeAllConnections()
    this.faults.cancelWaits()
    await closed
  }

  stats(): RequestStats {
    return structuredClone(this.counters)
  }

  resetStats(): void {
    this.counters = emptyStats()
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://sim.invalid')
    const method = (req.method ?? 'GET').toUpperCase()
    const send = (reply: Reply) => {
      bump(this.counters.byStatus, String(reply.status))
      if (reply.stream) {
        const counters = this.counters
        res.once('close', () => {
          if (!res.writableFinished) counters.streamsAborted++
        })
      }
      sendReply(res, reply, method === 'HEAD')
    }
    this.counters.total++
    if (method === 'GET' && url.pathname.startsWith(`${LAUNCH_PATH}/`)) {
      bump(this.counters.byPath, `${method} ${LAUNCH_PATH}`)
      let id: string | null = null
      try {
        id = decodeURIComponent(url.pathname.slice(LAUNCH_PATH.length + 1))
      } catch {
        // malformed escape: no dispatch has that id
      }
      return send(launchPage(this.ctx, id ?? ''))
    }
    if (!url.pathname.startsWith(`${BASE_PATH}/`)) {
      bump(this.counters.byPath, `${method} ${url.pathname}`)
      return send({ status: 404, body: { message: `No such resource: ${url.pathname}` } })
    }
    const path = url.pathname.slice(BASE_PATH.length)
    bump(this.counters.byPath, `${method} ${path}`)

    const fault = await this.faults.apply(path)
    if (fault) return send(fault)
    if (!this.authorised(req.headers.authorization)) {
      return send({
        status: 401,
        headers: { 'WWW-Authenticate': 'Basic realm="SCORM Cloud API"' },
        body: { error: 'Authorization Required.' },
      })
    }
    // HEAD answers like GET without a body (e.g. HEAD /registrations/{id}).
    const match = matchRoute(this.routes, method === 'HEAD' ? 'GET' : method, path)
    if (!match) return send({ status: 404, body: { message: `No such resource: ${path}` } })
    if ('methodNotAllowed' in match)
      return send({ status: 405, body: { message: `Method ${method} not allowed on ${path}` } })
    bump(this.counters.byRoute, `${method} ${match.route.pattern}`)
    try {
      const body = method === 'PUT' || method === 'POST' || method === 'DELETE' ? await readJsonBody(req) : undefined
      const origin = `http://${req.headers.host ?? `${this.ctx.options.host}:${this.port}`}`
      const reply = await match.route.handler({
        sim: this.ctx,
        params: match.params,
        search: url.searchParams,
        body,
        origin,
      })
      if (this.faults.dropsAnswer(method, path)) {
        // Carried out, answer lost: the connection goes before a byte of the answer is written.
        req.socket.destroy()
        return
      }
      send(reply)
    } catch (error) {
      if (error instanceof HttpError) return send({ status: error.status, body: { message: error.message } })
      if (error instanceof InvalidInputError) return send({ status: 400, body: { message: error.message } })
      this.ctx.options.log(
        `handler error on ${method} ${path}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      )
      send({ status: 500, body: { message: 'Internal error' } })
    }
  }

  /** Basic credentials = app id / secret key; compared in constant time. */
  private authorised(header: string | undefined): boolean {
    if (!header?.startsWith('Basic ')) return false
    const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8')
    const expected = `${this.ctx.options.appId}:${this.ctx.options.secretKey}`
    return timingSafeEqual(digest(decoded), digest(expected))
  }
}
