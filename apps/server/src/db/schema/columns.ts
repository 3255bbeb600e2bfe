import { sql } from 'drizzle-orm'
import { bigint, integer, text, timestamp, uuid } from 'drizzle-orm/pg-core'

/*
 * The column sets many tables share, written once. The migrations (hand-written SQL) define the
 * tables; these only type the queries, so each helper matches the SQL the migrations use.
 */

/** Every time column is `timestamptz`, read as a Date. */
export const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' })

/** When the row was written (the database's clock). */
export const createdAt = () => tz('created_at').notNull().defaultNow()

/** When the row last changed: the database's clock on insert, the service's update after. */
export const updatedAt = () => tz('updated_at').notNull().defaultNow()

/** `created_at` and `updated_at`, in that order. */
export const timestamps = () => ({ createdAt: createdAt(), updatedAt: updatedAt() })

/** A uuid primary key the database draws. */
export const uuidId = () => uuid('id').primaryKey().defaultRandom()

/** A bigint identity primary key, read as a number (ids stay far below 2^53). */
export const identityId = () => bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity()

/** When the row stops counting: a token, a challenge, a session. */
export const expiresAt = () => tz('expires_at').notNull()

/**
 * A queue row's delivery state (the mail outbox, webhook deliveries; db/claims.ts takes them):
 * attempts so far, when the next is due, and the claim holding the row (its worker's token and
 * the end of its lease).
 */
export const claimable = () => ({
  attempts: integer('attempts').notNull().default(0),
  nextAttemptAt: tz('next_attempt_at').notNull().defaultNow(),
  claimToken: uuid('claim_token'),
  lockedUntil: tz('locked_until'),
})

/** A single-use row (a refresh token, a sign-in challenge): written, good until, spent at (null until then). */
export const singleUse = () => ({ createdAt: createdAt(), expiresAt: expiresAt(), usedAt: tz('used_at') })

/**
 * A stored lowercase copy of a text column, for case-blind search and sort on an index
 * (the migrations add these as `generated always as (lower(...)) stored`).
 */
export const lowered = (name: string, source: string) => text(name).generatedAlwaysAs(sql.raw(`lower("${source}")`))
