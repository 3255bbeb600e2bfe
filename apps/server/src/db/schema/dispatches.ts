import { sql } from 'drizzle-orm'
import { bigint, boolean, doublePrecision, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { company } from './companies'
import { course } from './courses'

const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' })

export const dispatch = pgTable(
  'dispatch',
  {
    id: text('id').primaryKey(),
    courseId: text('course_id')
      .notNull()
      .references(() => course.id),
    courseTitle: text('course_title').notNull(),
    destinationId: text('destination_id')
      .notNull()
      .references(() => company.id),
    destinationName: text('destination_name').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    allowNewRegistrations: boolean('allow_new_registrations').notNull().default(true),
    instanced: boolean('instanced').notNull().default(false),
    registrationCount: integer('registration_count').notNull().default(0),
    /**
     * Non-removed `registration` rows of this dispatch (the "active registrations" of the
     * dispatch list summary). Kept by statement-level triggers on `registration` (migration
     * 0002_registration_counter), so every writer (sync, postbacks) keeps it right without
     * knowing about it, and the summary never counts a million rows per request.
     */
    activeRegistrationCount: integer('active_registration_count').notNull().default(0),
    /**
     * Changes (to txid_current()) whenever a statement writes this dispatch's registrations
     * (triggers of migration 0007_data_versions): the completion report caches its
     * totals per value, so a report of unchanged registrations counts nothing again.
     */
    registrationVersion: bigint('registration_version', { mode: 'number' }).notNull().default(0),
    /** 0 means unlimited (SPEC §3). */
    registrationCap: integer('registration_cap').notNull().default(0),
    expirationDate: tz('expiration_date'),
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    notes: text('notes').notNull().default(''),
    providerCreated: tz('provider_created'),
    providerUpdated: tz('provider_updated'),
    removedAt: tz('removed_at'),
    syncedAt: tz('synced_at'),
  },
  (t) => [
    index('dispatch_destination_id_idx').on(t.destinationId),
    index('dispatch_course_id_idx').on(t.courseId),
    // The dispatch list sorts case-insensitively with id as the tiebreaker (dispatches.repository.ts):
    // these match its ORDER BY so a page is an index range scan, forwards or backwards.
    index('dispatch_destination_name_idx').on(sql`lower(${t.destinationName})`, t.id),
    index('dispatch_course_title_idx').on(sql`lower(${t.courseTitle})`, t.id),
    index('dispatch_registration_count_idx').on(t.registrationCount, t.id),
    index('dispatch_enabled_idx').on(t.enabled, sql`lower(${t.destinationName})`, t.id),
  ],
)

/**
 * One row (id 1): set to txid_current() by every statement that writes `dispatch` (triggers of
 * migration 0007). The dispatch list caches its summary per value; a committed value always
 * names one committed state of the table, so a cached summary is never stale.
 */
export const dispatchVersion = pgTable('dispatch_version', {
  id: integer('id').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull(),
})

/** A learner's registration on a dispatch, as SCORM Cloud reports it (dispatchId). */
export const registration = pgTable(
  'registration',
  {
    id: text('id').primaryKey(),
    instance: integer('instance').notNull().default(0),
    dispatchId: text('dispatch_id')
      .notNull()
      .references(() => dispatch.id),
    courseId: text('course_id').notNull(),
    learnerId: text('learner_id').notNull().default(''),
    learnerFirstName: text('learner_first_name').notNull().default(''),
    learnerLastName: text('learner_last_name').notNull().default(''),
    learnerEmail: text('learner_email').notNull().default(''),
    /** completed | incomplete | not attempted */
    completionStatus: text('completion_status').notNull(),
    /** passed | failed | unknown */
    successStatus: text('success_status').notNull(),
    /** SCORM Cloud score.scaled, 0..100; null when unscored. */
    scoreScaled: doublePrecision('score_scaled'),
    totalSecondsTracked: doublePrecision('total_seconds_tracked').notNull().default(0),
    firstAccessDate: tz('first_access_date'),
    lastAccessDate: tz('last_access_date'),
    completedDate: tz('completed_date'),
    createdDate: tz('created_date'),
    /** The provider's `updated`: a postback or sync older than this changes nothing. */
    providerUpdated: tz('provider_updated'),
    removedAt: tz('removed_at'),
    syncedAt: tz('synced_at'),
  },
  (t) => [
    // The completion report's order: last access newest first, never-accessed last, then id.
    index('registration_dispatch_last_access_idx').on(t.dispatchId, t.lastAccessDate.desc().nullsLast(), t.id),
    // The report filtered by status (and a last-access range) in its own order, over the live
    // rows only: the page's id look-up and the count are index-only scans.
    index('registration_report_status_idx')
      .on(t.dispatchId, t.completionStatus, t.lastAccessDate.desc().nullsLast(), t.id)
      .where(sql`${t.removedAt} is null`),
    index('registration_course_id_idx').on(t.courseId),
  ],
)
