/**
 * Fails fast while SCORM Cloud is down (docs/architecture.md): after `failureThreshold` failed calls
 * in a row the circuit opens; after `openMs` one probe call is let through (half-open); its
 * success closes the circuit, its failure opens it again.
 */
export interface BreakerOptions {
  failureThreshold: number
  openMs: number
  now?: () => number
}

export type BreakerState = 'closed' | 'open' | 'half-open'

export function createCircuitBreaker(options: BreakerOptions) {
  const now = options.now ?? Date.now
  let state: BreakerState = 'closed'
  let failures = 0
  let openedAt = 0
  let probing = false

  return {
    get state(): BreakerState {
      if (state === 'open' && now() - openedAt >= options.openMs) return 'half-open'
      return state
    },
    /** True when a call may go out now. */
    tryAcquire(): boolean {
      if (state === 'closed') return true
      if (now() - openedAt < options.openMs) return false
      if (probing) return false
      probing = true
      state = 'half-open'
      return true
    },
    /** Milliseconds until the next probe is allowed (0 when closed). */
    retryInMs(): number {
      return state === 'closed' ? 0 : Math.max(0, options.openMs - (now() - openedAt))
    },
    /** A call given up by its caller (not a provider failure): a half-open probe may go out again. */
    abandon() {
      probing = false
    },
    success() {
      state = 'closed'
      failures = 0
      probing = false
    },
    failure() {
      probing = false
      failures += 1
      if (state === 'half-open' || failures >= options.failureThreshold) {
        state = 'open'
        openedAt = now()
      }
    },
  }
}
export type CircuitBreaker = ReturnType<typeof createCircuitBreaker>
