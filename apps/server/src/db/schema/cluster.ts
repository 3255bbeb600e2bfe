import { index, integer, pgTable, text } from 'drizzle-orm/pg-core'
import { createdAt, tz } from './columns'

/** API rate-limit counters, shared by every server node (modules/cluster/rate-limit-store.ts). */
export const rateLimitCounter = pgTable(
  'rate_limit_counter',
  {
    key: text('key').primaryKey(),
    hits: integer('hits').notNull(),
    windowEndsAt: tz('window_ends_at').notNull(),
  },
  (t) => [index('rate_limit_counter_window_ends_at_idx').on(t.windowEndsAt)],
)

/** Keyed hashes of the secrets every node must share (modules/cluster/shared-secrets.ts). */
export const secretFingerprint = pgTable('secret_fingerprint', {
  name: text('name').primaryKey(),
  fingerprint: text('fingerprint').notNull(),
  createdAt: createdAt(),
})
