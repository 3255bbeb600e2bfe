import { eq, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { loginThrottle } from '../../db/schema'

export interface ThrottleRule {
  /** Failures allowed inside the window before blocking starts. */
  maxFailures: number
  windowSeconds: number
  /** First block length; doubles with each further failure, up to maxBlockSeconds. */
  blockSeconds: number
  maxBlockSeconds: number
}

/**
 * Failed sign-ins per account and per IP (DECISIONS.md). Blocks are short and capped, so the
 * real owner is never locked out for good: after the block they can sign in again.
 */
export const DEFAULT_THROTTLE = {
  account: { maxFailures: 5, windowSeconds: 15 * 60, blockSeconds: 60, maxBlockSeconds: 15 * 60 },
  ip: { maxFailures: 30, windowSeconds: 15 * 60, blockSeconds: 60, maxBlockSeconds: 15 * 60 },
} satisfies Record<string, ThrottleRule>

export function createLoginThrottle(db: Db, rules = DEFAULT_THROTTLE) {
  const keys = (email: string, ip: string) =>
    [
      { key: `account:${email.trim().toLowerCase()}`, rule: rules.account },
      { key: `ip:${ip}`, rule: rules.ip },
    ] as const

  return {
    /** Seconds to wait before another attempt, or 0 when the attempt may proceed. */
    async retryAfter(email: string, ip: string, now = new Date()): Promise<number> {
      let wait = 0
      for (const { key } of keys(email, ip)) {
        const [row] = await db.select().from(loginThrottle).where(eq(loginThrottle.key, key))
        if (row?.blockedUntil && row.blockedUntil > now) {
          wait = Math.max(wait, Math.ceil((row.blockedUntil.getTime() - now.getTime()) / 1000))
        }
      }
      return wait
    },

    async recordFailure(email: string, ip: string): Promise<void> {
      for (const { key, rule } of keys(email, ip)) {
        // One statement, so concurrent failures from several processes all count.
        await db.execute(sql`
          insert into login_throttle as t (key, failures, window_started_at)
          values (${key}, 1, now())
          on conflict (key) do update set
            failures = case
              when t.window_started_at < now() - make_interval(secs => ${rule.windowSeconds})
                and (t.blocked_until is null or t.blocked_until < now())
              then 1 else t.failures + 1 end,
            window_started_at = case
              when t.window_started_at < now() - make_interval(secs => ${rule.windowSeconds})
                and (t.blocked_until is null or t.blocked_until < now())
              then now() else t.window_started_at end
        `)
        await db.execute(sql`
          update login_throttle set blocked_until = now() + make_interval(secs => least(
            ${rule.maxBlockSeconds}::float8,
            ${rule.blockSeconds}::float8 * power(2, failures - ${rule.maxFailures} - 1)))
          where key = ${key} and failures > ${rule.maxFailures}
        `)
      }
    },

    /** A successful sign-in clears the account's count (not the IP's). */
    async recordSuccess(email: string): Promise<void> {
      await db.delete(loginThrottle).where(eq(loginThrottle.key, `account:${email.trim().toLowerCase()}`))
    },
  }
}
export type LoginThrottle = ReturnType<typeof createLoginThrottle>
