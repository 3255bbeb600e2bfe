/**
 * Postback delivery (docs/scorm-cloud-api.md §9): POST of the registration JSON (`httpbasic`, Basic
 * header when credentials are set) or urlencoded `data`/`userName`/`password` (`form`).
 * Any status below 400 counts as delivered and redirects are not followed. Failures are
 * retried a few times with exponential backoff, then dropped; nothing here may throw
 * into the simulator.
 */
import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { RegistrationSchema } from '@portal/server/scorm-cloud-types'

export interface PostbackTarget {
  url: string
  authType: 'httpbasic' | 'form'
  user?: string
  password?: string
}

export interface PostbackStats {
  /** Postbacks queued (one per changed registration). */
  queued: number
  /** HTTP attempts made, including retries. */
  attempts: number
  delivered: number
  failedAttempts: number
  /** Given up after the last retry. */
  dropped: number
}

export interface PostbackSettings {
  retries: number
  backoffMs: number
  timeoutMs: number
  log: (line: string) => void
}

export class PostbackSender {
  private readonly counters: PostbackStats = { queued: 0, attempts: 0, delivered: 0, failedAttempts: 0, dropped: 0 }
  private readonly timers = new Set<NodeJS.Timeout>()
  private pending = 0
  private idleWaiters: Array<() => void> = []
  private closed = false

  constructor(private readonly settings: PostbackSettings) {}

  send(registration: RegistrationSchema, target: PostbackTarget): void {
    if (this.closed) return
    this.counters.queued++
    this.pending++
    this.attempt(registration, target, 0)
  }

  stats(): PostbackStats {
    return { ...this.counters }
  }

  /** Resolves once every queued postback was delivered or dropped. */
  idle(): Promise<void> {
    if (this.pending === 0) return Promise.resolve()
    return new Promise((resolve) => this.idleWaiters.push(resolve))
  }

  close(): void {
    this.closed = true
    for (const t of this.timers) clearTimeout(t)
    this.timers.clear()
    this.pending = 0
    this.flushIdle()
  }

  private attempt(registration: RegistrationSchema, target: PostbackTarget, tryNo: number): void {
    if (this.closed) return
    this.counters.attempts++
    deliver(registration, target, this.settings.timeoutMs).then(
      () => {
        this.counters.delivered++
        this.finish()
      },
      (error: unknown) => {
        this.counters.failedAttempts++
        if (this.closed) return
        if (tryNo >= this.settings.retries) {
          this.counters.dropped++
          this.settings.log(`postback for ${registration.id} dropped after ${tryNo + 1} attempts: ${String(error)}`)
          this.finish()
          return
        }
        const timer = setTimeout(
          () => {
            this.timers.delete(timer)
            this.attempt(registration, target, tryNo + 1)
          },
          this.settings.backoffMs * 2 ** tryNo,
        )
        timer.unref()
        this.timers.add(timer)
      },
    )
  }

  private finish(): void {
    this.pending = Math.max(0, this.pending - 1)
    if (this.pending === 0) this.flushIdle()
  }

  private flushIdle(): void {
    const waiters = this.idleWaiters
    this.idleWaiters = []
    for (const resolve of waiters) resolve()
  }
}

function deliver(registration: RegistrationSchema, target: PostbackTarget, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const url = new URL(target.url)
    const json = JSON.stringify(registration)
    const headers: Record<string, string> = {}
    let body: string
    if (target.authType === 'form') {
      const form = new URLSearchParams({ data: json })
      if (target.user !== undefined) form.set('userName', target.user)
      if (target.password !== undefined) form.set('password', target.password)
      body = form.toString()
      headers['Content-Type'] = 'application/x-www-form-urlencoded; charset=UTF-8'
    } else {
      body = json
      headers['Content-Type'] = 'application/json; charset=UTF-8'
      if (target.user !== undefined && target.password !== undefined) {
        headers.Authorization = `Basic ${Buffer.from(`${target.user}:${target.password}`).toString('base64')}`
      }
    }
    headers['Content-Length'] = String(Buffer.byteLength(body))
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest
    const req = send(url, { method: 'POST', headers, timeout: timeoutMs }, (res) => {
      res.resume() // the answer body is irrelevant; drain it to free the socket
      const status = res.statusCode ?? 0
      if (status < 400) resolve()
      else reject(new Error(`HTTP ${status}`))
    })
    req.on('timeout', () => req.destroy(new Error('timeout')))
    req.on('error', reject)
    req.end(body)
  })
}
