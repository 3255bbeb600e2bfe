import { randomUUID } from 'node:crypto'
import { sql, type SQL } from 'drizzle-orm'

/** What a worker asks of a claim: the rows due at `now`, at most `limit`, each leased for `leaseMs`. */
export interface ClaimRequest {
  now: Date
  limit: number
  leaseMs: number
}

/**
 * A new claim of a queue's rows (the mail outbox, webhook deliveries): its token (only its
 * holder marks the rows afterwards), the SET that takes a row (status `sending`, the token, the
 * lease's end), and the test that a row's next attempt is due at `now` (a JavaScript time, whole
 * milliseconds, stands for its whole millisecond).
 */
export function newClaim({ now, leaseMs }: ClaimRequest) {
  const token = randomUUID()
  const lease = new Date(now.getTime() + leaseMs)
  return {
    token,
    take: sql`status = 'sending', claim_token = ${token}::uuid, locked_until = ${lease.toISOString()}::timestamptz`,
    due: (nextAttemptAt: SQL) => sql`${nextAttemptAt} < ${now.toISOString()}::timestamptz + interval '1 millisecond'`,
  }
}
