import { Agent } from 'undici'
import { createCircuitBreaker, type BreakerOptions, type CircuitBreaker } from './circuit-breaker'
import { providerMessage, ScormCloudError } from './scorm-cloud.errors'

export interface TransportOptions {
  baseUrl: string
  appId: string
  secretKey: string
  connectTimeoutMs?: number
  requestTimeoutMs?: number
  /** At most this many attempts for idempotent calls (3). */
  maxAttempts?: number
  backoffBaseMs?: number
  backoffCapMs?: number
  /** A Retry-After longer than this is not waited for: the call fails instead. */
  maxRetryAfterMs?: number
  breaker?: Partial<BreakerOptions>
  sleep?: (ms: number) => Promise<void>
  random?: () => number
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined | null>
  body?: unknown
}

/** A streamed download: the caller's signal, and what it accepts. */
export interface StreamOptions extends RequestOptions {
  /** Aborts the upstream request at any point (the browser went away). */
  signal?: AbortSignal
  accept?: string
}

type Method = 'GET' | 'PUT' | 'POST' | 'DELETE'
const IDEMPOTENT: ReadonlySet<Method> = new Set(['GET', 'PUT', 'DELETE'])
const RETRYABLE_STATUS = new Set([408, 429, 500, 502, 503, 504])

const cancelled = () => new ScormCloudError('The download was cancelled.', 0, false)

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

function retryAfterMs(header: string | null): number | null {
  if (!header) return null
  const seconds = Number(header)
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000)
  const date = Date.parse(header)
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now())
}

/**
 * The one HTTP path to SCORM Cloud: Basic auth, connect and request timeouts, bounded retries
 * of idempotent calls with capped exponential backoff and full jitter, Retry-After honoured,
 * and a circuit breaker in front of it all.
 */
export function createTransport(options: TransportOptions) {
  const base = options.baseUrl.replace(/\/+$/, '')
  const auth = `Basic ${Buffer.from(`${options.appId}:${options.secretKey}`).toString('base64')}`
  const requestTimeoutMs = options.requestTimeoutMs ?? 15_000
  const maxAttempts = options.maxAttempts ?? 3
  const baseMs = options.backoffBaseMs ?? 200
  const capMs = options.backoffCapMs ?? 5_000
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 30_000
  const sleep = options.sleep ?? defaultSleep
  const random = options.random ?? Math.random
  const dispatcher = new Agent({
    connect: { timeout: options.connectTimeoutMs ?? 5_000 },
    headersTimeout: requestTimeoutMs,
    bodyTimeout: requestTimeoutMs,
  })
  const breaker: CircuitBreaker = createCircuitBreaker({
    failureThreshold: options.breaker?.failureThreshold ?? 5,
    openMs: options.breaker?.openMs ?? 30_000,
    ...(options.breaker?.now ? { now: options.breaker.now } : {}),
  })
  let attemptsMade = 0

  function url(path: string, query?: RequestOptions['query']) {
    const u = new URL(base + path)
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined && value !== null && value !== '') u.searchParams.set(key, String(value))
    }
    return u
  }

  /** How one attempt is sent: a whole-call timeout, or (streams) a header timeout plus the caller's signal. */
  interface AttemptSignal {
    signal: AbortSignal
    /** Headers arrived: a stream's body is no longer bounded by the request timeout. */
    settled(): void
  }
  const wholeCall = (): AttemptSignal => ({ signal: AbortSignal.timeout(requestTimeoutMs), settled: () => {} })

  async function attempt(
    method: Method,
    target: URL,
    body: unknown,
    timing: AttemptSignal,
    accept = 'application/json',
  ): Promise<Response> {
    attemptsMade += 1
    return fetch(target, {
      method,
      headers: {
        authorization: auth,
        accept,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'error',
      signal: timing.signal,
      // @ts-expect-error undici's dispatcher option is not in the DOM RequestInit type
      dispatcher,
    })
  }

  /**
   * Sends a request and reads its 2xx answer with `read`, or throws ScormCloudError. The body
   * is read inside the attempt, so a body that stalls past the timeout or breaks off is a
   * failed attempt (retried, counted by the breaker), not a raw error escaping the client.
   */
  async function send<T>(
    method: Method,
    path: string,
    opts: RequestOptions,
    read: (response: Response) => Promise<T>,
    stream?: StreamOptions,
  ): Promise<T> {
    const target = url(path, opts.query)
    const tries = IDEMPOTENT.has(method) ? maxAttempts : 1
    let lastError: ScormCloudError | null = null
    // A try that timed out says more than a later one that failed on its connection (a stalled
    // provider's socket closed in between): the answer names the timeout.
    let timedOutOnce = false
    for (let i = 0; i < tries; i++) {
      if (stream?.signal?.aborted) throw cancelled()
      if (!breaker.tryAcquire()) {
        throw new ScormCloudError(
          `SCORM Cloud is unavailable; the portal will try again in ${Math.ceil(breaker.retryInMs() / 1000)} s.`,
          0,
          true,
        )
      }
      let waitMs: number | null = null
      const timing = stream ? headerTimeout(stream.signal) : wholeCall()
      try {
        const response = await attempt(method, target, opts.body, timing, stream?.accept)
        timing.settled()
        if (response.ok) {
          const value = await read(response)
          breaker.success()
          return value
        }
        const retryable = RETRYABLE_STATUS.has(response.status)
        lastError = new ScormCloudError(await providerMessage(response), response.status, retryable)
        if (!retryable) {
          // The provider answered: it is up, the request was refused.
          breaker.success()
          throw lastError
        }
        breaker.failure()
        waitMs = retryAfterMs(response.headers.get('retry-after'))
      } catch (error) {
        timing.settled()
        if (error instanceof ScormCloudError) {
          if (!error.retryable) throw error
        } else if (stream?.signal?.aborted) {
          // The caller gave up (not the provider's fault): free a half-open probe, count nothing.
          breaker.abandon()
          throw cancelled()
        } else {
          breaker.failure()
          const timedOut = (error as Error).name === 'TimeoutError' || (error as Error).name === 'AbortError'
          timedOutOnce ||= timedOut
          lastError = new ScormCloudError(
            timedOutOnce ? 'SCORM Cloud did not answer in time.' : 'SCORM Cloud could not be reached.',
            0,
            true,
          )
        }
      }
      if (i === tries - 1) break
      if (waitMs !== null && waitMs > maxRetryAfterMs) break
      // Full jitter (AWS architecture blog): a random wait up to the capped exponential step.
      const backoff = random() * Math.min(capMs, baseMs * 2 ** i)
      await sleep(Math.max(waitMs ?? 0, backoff))
    }
    throw lastError ?? new ScormCloudError('SCORM Cloud could not be reached.', 0, true)
  }

  /** Times out only the wait for the answer's headers; the caller's signal aborts at any point. */
  function headerTimeout(callerSignal: AbortSignal | undefined): AttemptSignal {
    const controller = new AbortController()
    const timer = setTimeout(
      () => controller.abort(new DOMException('SCORM Cloud did not answer in time.', 'TimeoutError')),
      requestTimeoutMs,
    )
    return {
      signal: callerSignal ? AbortSignal.any([controller.signal, callerSignal]) : controller.signal,
      settled: () => clearTimeout(timer),
    }
  }

  return {
    /**
     * A GET whose 2xx body is handed over unread, to be streamed (package downloads).
     * Retries, Retry-After and the breaker apply until the headers arrive; a stalled body is
     * cut by the dispatcher's bodyTimeout; `signal` aborts the upstream request at any point.
     */
    stream: (path: string, opts: StreamOptions = {}) => send('GET', path, opts, async (response) => response, opts),
    /** Resolves with the 2xx response; its body is the caller's to read (outside the retries). */
    request: (method: Method, path: string, opts: RequestOptions = {}) =>
      send(method, path, opts, async (response) => response),
    async json<T>(method: Method, path: string, opts: RequestOptions = {}): Promise<T> {
      const { status, text } = await send(method, path, opts, async (response) => ({
        status: response.status,
        text: await response.text(),
      }))
      if (!text) return undefined as T
      try {
        return JSON.parse(text) as T
      } catch {
        throw new ScormCloudError('SCORM Cloud sent a response that is not JSON.', status, false)
      }
    },
    /**
     * A list's X-Total-Count (docs/scorm-cloud-api.md §2: sent on the first request when `includeTotalCount`
     * is true), its page of items read and dropped. null when the provider sent no count.
     */
    total: (path: string, opts: RequestOptions = {}) =>
      send('GET', path, opts, async (response) => {
        await response.arrayBuffer()
        const header = response.headers.get('x-total-count')
        const value = header === null ? NaN : Number(header)
        return Number.isInteger(value) && value >= 0 ? value : null
      }),
    breaker,
    /** Attempts sent so far (tests check the retry budget). */
    attempts: () => attemptsMade,
    close: () => dispatcher.close(),
  }
}
export type Transport = ReturnType<typeof createTransport>
