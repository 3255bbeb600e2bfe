/**
 * Fault injection, changeable at run time: latency, stalls, deterministic failures
 * (`failNext`), 429 bursts with Retry-After, and random 500/503 at `errorRate`.
 * Decisions use a seeded stream so a failing test run can be replayed.
 */
import type { Reply } from './http-util'
import { NO_FAULTS, type FaultOptions } from './options'
import { STREAM, pick, rngFor, type Rng } from './prng'

export interface FaultStats {
  errors: number
  rateLimited: number
  stalled: number
  delayed: number
  /** Changes carried out whose answer was never sent (`dropAnswerNext`). */
  answersDropped: number
}

const ERROR_TEXT: Record<number, string> = {
  500: 'Internal server error (simulated)',
  502: 'Bad gateway (simulated)',
  503: 'Service temporarily unavailable (simulated)',
  504: 'Gateway timeout (simulated)',
}

export class Faults {
  private current: FaultOptions
  private readonly rng: Rng
  /** Requests seen by the rate-limit window since the last setFaults. */
  private windowCount = 0
  private readonly waits = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>()
  private readonly counters: FaultStats = {
    errors: 0,
    rateLimited: 0,
    stalled: 0,
    delayed: 0,
    answersDropped: 0,
  }

  constructor(initial: FaultOptions, seed: number) {
    this.current = normalise(initial)
    this.rng = rngFor(seed, STREAM.faults, 0)
  }

  get options(): FaultOptions {
    return structuredClone(this.current)
  }

  /** Merges a change; `null`/omitted fields keep their value, `reset` starts from no faults. */
  set(change: Partial<FaultOptions>, reset = false): FaultOptions {
    this.current = normalise({ ...(reset ? NO_FAULTS : this.current), ...change })
    this.windowCount = 0
    return this.options
  }

  stats(): FaultStats {
    return { ...this.counters }
  }

  /** Waits as configured, then returns the injected answer, or null to serve normally. */
  async apply(path: string): Promise<Reply | null> {
    const f = this.current
    if (f.onlyPaths && !f.onlyPaths.some((prefix) => path.startsWith(prefix))) return null
    if (f.latencyMs > 0) {
      this.counters.delayed++
      await this.wait(f.latencyMs)
    }
    if (f.stallRate > 0 && this.rng() < f.stallRate) {
      this.counters.stalled++
      await this.wait(f.stallMs)
    }
    if (f.failNext > 0) {
      f.failNext--
      return this.error(f.errorStatuses[0] ?? 500)
    }
    const burst = f.rateLimitBurst
    if (burst && burst.every > 0 && burst.length > 0) {
      const position = this.windowCount++ % burst.every
      if (position >= burst.every - burst.length) {
        this.counters.rateLimited++
        return {
          status: 429,
          headers: { 'Retry-After': String(burst.retryAfterSeconds) },
          body: { message: 'Too many requests (simulated rate limit)' },
        }
      }
    }
    if (f.errorRate > 0 && this.rng() < f.errorRate) return this.error(pick(this.rng, f.errorStatuses))
    return null
  }

  /** After a request was carried out: true when its answer is to be dropped (`dropAnswerNext`). */
  dropsAnswer(method: string, path: string): boolean {
    const f = this.current
    if (f.dropAnswerNext <= 0 || method === 'GET' || method === 'HEAD') return false
    if (f.onlyPaths && !f.onlyPaths.some((prefix) => path.startsWith(prefix))) return false
    f.dropAnswerNext--
    this.counters.answersDropped++
    return true
  }

  /** Releases every pending delay (server stopping); the requests then find their socket gone. */
  cancelWaits(): void {
    for (const w of this.waits) {
      clearTimeout(w.timer)
      w.resolve()
    }
    this.waits.clear()
  }

  private error(status: number): Reply {
    this.counters.errors++
    return { status, body: { message: ERROR_TEXT[status] ?? `Error ${status} (simulated)` } }
  }

  private wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const entry = {
        timer: setTimeout(() => {
          this.waits.delete(entry)
          resolve()
        }, ms),
        resolve,
      }
      this.waits.add(entry)
    })
  }
}

function normalise(f: FaultOptions): FaultOptions {
  const rate = (x: number) => Math.min(1, Math.max(0, Number.isFinite(x) ? x : 0))
  return {
    ...f,
    errorRate: rate(f.errorRate),
    stallRate: rate(f.stallRate),
    errorStatuses: f.errorStatuses.length > 0 ? [...f.errorStatuses] : [500, 503],
    failNext: Math.max(0, Math.floor(f.failNext)),
    dropAnswerNext: Math.max(0, Math.floor(f.dropAnswerNext ?? 0)),
    latencyMs: Math.max(0, f.latencyMs),
    onlyPaths: f.onlyPaths ? [...f.onlyPaths] : null,
    rateLimitBurst: f.rateLimitBurst ? { ...f.rateLimitBurst } : null,
  }
}
