import { boolean, index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core'
import { identityId, tz, updatedAt } from './columns'

/** One run of the mirror sync (docs/architecture.md): what it created, updated, skipped and failed. */
export const syncRun = pgTable(
  'sync_run',
  {
    id: identityId(),
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
    /** Migration 0044: time spent waiting for the provider's listing pages. */
    providerWaitMs: integer('provider_wait_ms'),
    /** Migration 0044: time spent writing (pages, deferred aggregate builds, statistics). */
    writeMs: integer('write_ms'),
  },
  (t) => [index('sync_run_kind_started_at_idx').on(t.kind, t.startedAt.desc())],
)

/** Where the next incremental sync of a kind starts; written only after its transaction commits. */
/** One row: the last SCORM Cloud error a sync met, null once a sync succeeds; shared by every node. */
export const syncProviderState = pgTable('sync_provider_state', {
  id: boolean('id').primaryKey().default(true),
  lastError: text('last_error'),
  updatedAt: updatedAt(),
})

export const syncCursor = pgTable('sync_cursor', {
  kind: text('kind').primaryKey(),
  since: tz('since').notNull(),
  updatedAt: updatedAt(),
})

/**
 * A kind's listing under way: the provider's `more` token of the next page, saved
 * in each page's transaction, so a failed run resumes there. `nextPage` null: every page is
 * written and only the run's end (removal check, counters, cursor) is left.
 */
export const syncCheckpoint = pgTable('sync_checkpoint', {
  kind: text('kind').primaryKey(),
  /** The listing's window: null for a full listing. */
  since: tz('since'),
  /** Becomes the kind's cursor once the listing is finished. */
  listingStartedAt: tz('listing_started_at').notNull(),
  nextPage: text('next_page'),
  pages: integer('pages').notNull().default(0),
  updatedAt: updatedAt(),
})

/** Ids the full listing under way has returned (courses, destinations, dispatches). */
export const syncSeen = pgTable('sync_seen', { kind: text('kind').notNull(), id: text('id').notNull() }, (t) => [
  primaryKey({ name: 'sync_seen_pkey', columns: [t.kind, t.id] }),
])

/** Missing from the last complete full listing and not confirmed gone: removed if missed again. */
export const syncMissing = pgTable(
  'sync_missing',
  {
    kind: text('kind').notNull(),
    id: text('id').notNull(),
    missedAt: tz('missed_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'sync_missing_pkey', columns: [t.kind, t.id] })],
)
