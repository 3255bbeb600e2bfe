import { bigint, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core'

const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' })

/** One run of the mirror sync (ARCHITECTURE.md): what it created, updated, skipped and failed. */
export const syncRun = pgTable(
  'sync_run',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind').notNull(),
    trigger: text('trigger').notNull(),
    status: text('status').notNull(),
    startedAt: tz('started_at').notNull().defaultNow(),
    finishedAt: tz('finished_at'),
    created: integer('created').notNull().default(0),
    updated: integer('updated').notNull().default(0),
    skipped: integer('skipped').notNull().default(0),
    errors: integer('errors').notNull().default(0),
    message: text('message'),
  },
  (t) => [index('sync_run_kind_started_at_idx').on(t.kind, t.startedAt.desc())],
)

/** Where the next incremental sync of a kind starts; written only after its transaction commits. */
export const syncCursor = pgTable('sync_cursor', {
  kind: text('kind').primaryKey(),
  since: tz('since').notNull(),
  updatedAt: tz('updated_at').notNull().defaultNow(),
})
