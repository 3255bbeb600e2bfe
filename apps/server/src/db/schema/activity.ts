import { sql } from 'drizzle-orm'
import { bigint, date, index, integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core'
import { createdAt } from './columns'

/**
 * No foreign key on user_id: a deleted user's rows stay, readable through the actor's name
 * and email kept on each row (docs/product-decisions.md D19). Partitioned by month of created_at (migration
 * 0014, with a default partition for months without one); the id comes from its sequence, and
 * the primary key holds the partition key.
 */
export const activityLog = pgTable(
  'activity_log',
  {
    id: bigint('id', { mode: 'number' })
      .notNull()
      .default(sql`nextval('activity_log_id_seq')`),
    createdAt: createdAt(),
    userId: uuid('user_id'),
    actorName: text('actor_name'),
    actorEmail: text('actor_email'),
    action: text('action').notNull(),
    details: jsonb('details'),
    ipAddress: text('ip_address'),
    /** What a search looks in, lowercased (migration 0014; the trigram index is on it). */
    searchText: text('search_text').generatedAlwaysAs(
      sql`lower(coalesce("details"::text, '') || ' ' || coalesce("ip_address", '') || ' ' || coalesce("actor_name", '') || ' ' || coalesce("actor_email", ''))`,
    ),
  },
  (t) => [
    primaryKey({ name: 'activity_log_pkey', columns: [t.id, t.createdAt] }),
    index('activity_log_created_at_idx').on(t.createdAt.desc(), t.id.desc()),
    index('activity_log_action_created_at_idx').on(t.action, t.createdAt.desc(), t.id.desc()),
    // With search_text as an INCLUDE column (migration 0058): a search with a user compares the
    // user's rows in a slice of time in the index alone.
    index('activity_log_user_id_created_at_idx').on(t.userId, t.createdAt.desc(), t.id.desc()),
    index('activity_log_user_action_idx').on(t.userId, t.action, t.createdAt.desc(), t.id.desc()),
    // activity_log_search_trgm_idx and activity_log_search_dotless_idx (gin: user_id, action and
    // the text's trigrams, with or without its dots) are made by migration 0050, where pg_trgm and
    // btree_gin exist.
  ],
)

/**
 * Log rows per UTC day and action, and per UTC day and user, kept by statement-level triggers
 * on activity_log (migration 0008): the logs' totals and the seek to a deep page read days.
 * The action index and the user table's primary key carry `rows` as an INCLUDE column (migration
 * 0049), so those reads are index-only scans.
 */
export const activityLogDay = pgTable(
  'activity_log_day',
  {
    day: date('day', { mode: 'string' }).notNull(),
    action: text('action').notNull(),
    rows: integer('rows').notNull().default(0),
  },
  (t) => [
    primaryKey({ name: 'activity_log_day_pkey', columns: [t.day, t.action] }),
    index('activity_log_day_action_idx').on(t.action, t.day),
  ],
)

export const activityLogUserDay = pgTable(
  'activity_log_user_day',
  {
    userId: uuid('user_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    rows: integer('rows').notNull().default(0),
  },
  (t) => [primaryKey({ name: 'activity_log_user_day_pkey', columns: [t.userId, t.day] })],
)
