import type { AuthRepository } from './auth.repository'

export interface ThrottleRule {
  /** Failures allowed inside the window before blocking starts. */
  maxFailures: number
  windowSeconds: number
  /** First block length; doubles with each further failure, up to maxBlockSeconds. */
  blockSeconds: number
  maxBlockSeconds: number
}

/**
 * Failed sign-ins per account and per IP (docs/product-decisions.md D16). Blocks are short and capped, so the
 * real owner is never locked out for good: after the block they can sign in again.
 */
export const DEFAULT_THROTTLE = {
  account: { maxFailures: 5, windowSeconds: 15 * 60, blockSeconds: 60, maxBlockSeconds: 15 * 60 },
  ip: { maxFailures: 30, windowSeconds: 15 * 60, blockSeconds: 60, maxBlockSeconds: 15 * 60 },
} satisfies Record<string, ThrottleRule>

type ThrottleStore = Pick<AuthRepository, 'throttleWaitSeconds' | 'throttleFailure' | 'throttleClear'>

export function createLoginThrottle(store: ThrottleStore, rules = DEFAULT_THROTTLE) {
  const keys = (email: string, ip: string) =>
    [
      { key: `account:${email.trim().toLowerCase()}`, rule: rules.account },
      { key: `ip:${ip}`, rule: rules.ip },
    ] as const

  return {
    /** Seconds to wait before another attempt, or 0 when the attempt may proceed. */
    async retryAfter(email: string, ip: string): Promise<number> {
      return store.throttleWaitSeconds(keys(email, ip).map(({ key }) => key))
    },

    async recordFailure(email: string, ip: string): Promise<void> {
      for (const { key, rule } of keys(email, ip)) await store.throttleFailure(key, rule)
    },

    /** A successful sign-in clears the account's count (not the IP's). */
    async recordSuccess(email: string): Promise<void> {
      await store.throttleClear(`account:${email.trim().toLowerCase()}`)
    },
  }
}
export type LoginThrottle = ReturnType<typeof createLoginThrottle>
