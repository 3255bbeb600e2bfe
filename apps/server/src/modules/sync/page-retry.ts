import type { CircuitBreaker } from '../scorm-cloud/circuit-breaker'
import { ScormCloudError } from '../scorm-cloud/scorm-cloud.errors'

/**
 * The sync's retry budget per page. The client already makes up to 3 attempts per
 * call; a page gets up to `tries` such calls, `delayMs`, then twice that, apart. At 30 % upstream
 * errors a call fails with probability 0.3^3 = 2.7 %, so a listing of 200 pages almost never
 * got through (0.973^200 = 0.4 %); a page with 3 calls (9 attempts) fails with probability
 * 0.3^9 ≈ 0.002 %, so one bad page no longer ends the run. Retried: provider errors (5xx),
 * timeouts and unreachable; not retried: 4xx (a retry would get the same answer), a 429 the
 * client gave up on (the provider asked for a longer wait than we allow) and an open circuit
 * (SCORM Cloud is down: the run stops and resumes from its checkpoint later).
 */
export interface PageRetry {
  tries: number
  delayMs: number
}

export const PAGE_RETRY: PageRetry = { tries: 3, delayMs: 2_000 }

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

export function pageRetryable(error: unknown): boolean {
  return error instanceof ScormCloudError && error.retryable && error.providerStatus !== 429
}

export async function withPageRetries<T>(
  call: () => Promise<T>,
  breaker: Pick<CircuitBreaker, 'state'>,
  retry: PageRetry,
  stopped: () => boolean = () => false,
): Promise<T> {
  let first: unknown = null
  for (let attempt = 1; ; attempt++) {
    try {
      return await call()
    } catch (error) {
      first ??= error
      // The circuit opened during the retries: report what made it open, not "unavailable".
      if (breaker.state === 'open') throw first
      if (attempt >= retry.tries || !pageRetryable(error) || stopped()) throw error
      await sleep(retry.delayMs * 2 ** (attempt - 1))
    }
  }
}
