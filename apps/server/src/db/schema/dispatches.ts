import { sql } from 'drizzle-orm'
import {
  bigint,
  bigserial,
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
} from 'drizzle-orm/pg-core'
import { company } from './users'
import { course } from './courses'
import { lowered, tz } from './columns'

export const dispatch = pgTable(
  'dispatch',
  {
    id: text('id').primaryKey(),
    courseId: text('course_id')
      .notNull()
      .references(() => course.id),
    courseTitle: text('course_title').notNull(),
    /** lower(course_title), the course sort's key (migration 0023). */
    courseKey: lowered('course_key', 'course_title').notNull(),
    destinationId: text('destination_id')
      .notNull()
      .references(() => company.id),
    destinationName: text('destination_name').notNull(),
    /** lower(destination_name), the client sort's key (migration 0023: written once, not per read). */
    destinationKey: lowered('destination_key', 'destination_name').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    allowNewRegistrations: boolean('allow_new_registrations').notNull().default(true),
    instanced: boolean('instanced').notNull().default(false),
    registrationCount: integer('registration_count').notNull().default(0),
    /** 0 means unlimited (docs/product-rules.md §3). */
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
    /** Last registration counter reset (SCORM Cloud `registrationResetDate`). */
    registrationResetDate: tz('registration_reset_date'),
    /** As last read from SCORM Cloud's …/{dispatchId}/hashUserInfo (migration 0030); null = never read. */
    hashUserInfo: boolean('hash_user_info'),
    /** Portal-owned: overrides the company's `cssUrl` for this dispatch's package. */
    cssUrl: text('css_url'),
  },
  (t) => {
    const live = sql`${t.removedAt} is null`
    return [
      index('dispatch_destination_id_idx').on(t.destinationId),
      index('dispatch_course_id_idx').on(t.courseId),
      // The dispatch list sorts case-insensitively with id as the tiebreaker (dispatches-page.sql.ts SORT_KEYS):
      // one index per sort key, alone and after the status filter, over live rows, so a page is
      // an index range scan, forwards or backwards (migrations 0008 and 0023, which carry
      // course_id and destination_id too, for a dense search walked index-only).
      index('dispatch_list_client_idx').on(t.destinationKey, t.id).where(live),
      index('dispatch_list_course_idx').on(t.courseKey, t.id).where(live),
      index('dispatch_list_registrations_idx').on(t.registrationCount, t.id).where(live),
      index('dispatch_list_status_client_idx').on(t.enabled, t.destinationKey, t.id).where(live),
      index('dispatch_list_status_course_idx').on(t.enabled, t.courseKey, t.id).where(live),
      index('dispatch_list_status_registrations_idx').on(t.enabled, t.registrationCount, t.id).where(live),
      // A search's matches by course and by company (migration 0024): each group in the order of
      // the client and of the course sort, carrying every sort key (collected index-only).
      index('dispatch_search_course_idx').on(t.courseId, t.destinationKey, t.id).where(live),
      index('dispatch_search_company_idx').on(t.destinationId, t.destinationKey, t.id).where(live),
      index('dispatch_search_course_by_course_idx').on(t.courseId, t.courseKey, t.id).where(live),
      index('dispatch_search_company_by_course_idx').on(t.destinationId, t.courseKey, t.id).where(live),
      // A company's courses in title order, with their titles: the learner list's course choices
      // (migration 0054), read index-only.
      index('dispatch_company_courses_idx').on(t.destinationId, t.courseKey, t.courseId).where(live),
      // The few removed dispatches (their registrations still count in the staff total).
      index('dispatch_removed_idx')
        .on(t.id)
        .where(sql`${t.removedAt} is not null`),
      // dispatch_id_trgm_idx (gin, pg_trgm) is made by migration 0008 where the extension exists.
    ]
  },
)

/**
 * Per dispatch, kept by statement-level triggers on `registration` (migration 0008): its live
 * registrations in all and per completion status, its distinct learners in all and per status,
 * and `version`, which changes (to txid_current() or above) with every statement that writes its
 * registrations: the completion report caches its pages and totals per value.
 */
export const dispatchStat = pgTable('dispatch_stat', {
  dispatchId: text('dispatch_id').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
  registrations: integer('registrations').notNull().default(0),
  completed: integer('completed').notNull().default(0),
  incomplete: integer('incomplete').notNull().default(0),
  notAttempted: integer('not_attempted').notNull().default(0),
  learners: integer('learners').notNull().default(0),
  learnersCompleted: integer('learners_completed').notNull().default(0),
  learnersIncomplete: integer('learners_incomplete').notNull().default(0),
  learnersNotAttempted: integer('learners_not_attempted').notNull().default(0),
  /** Migration 0044: the aggregates wait for dispatch_aggregates_build (a full sync defers them). */
  building: boolean('building').notNull().default(false),
})

/**
 * Live registrations per dispatch, completion status and UTC day of last access (migration 0041,
 * kept by triggers): the completion report's totals for a window of days.
 */
export const dispatchAccessDay = pgTable(
  'dispatch_access_day',
  {
    dispatchId: text('dispatch_id').notNull(),
    completionStatus: text('completion_status').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    registrations: integer('registrations').notNull().default(0),
  },
  (t) => [primaryKey({ name: 'dispatch_access_day_pkey', columns: [t.dispatchId, t.completionStatus, t.day] })],
)

/**
 * The live, accessed registrations of a dispatch's repeat learners (those dispatch_learner counts
 * more than once) per dispatch, UTC day of last access, completion status and learner (migration
 * 0042, kept by triggers): what corrects a window's registrations to its distinct learners.
 */
export const dispatchRepeatDay = pgTable(
  'dispatch_repeat_day',
  {
    dispatchId: text('dispatch_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    completionStatus: text('completion_status').notNull(),
    learnerHash: bigint('learner_hash', { mode: 'bigint' }).notNull(),
    registrations: integer('registrations').notNull(),
  },
  (t) => [
    primaryKey({
      name: 'dispatch_repeat_day_pkey',
      columns: [t.dispatchId, t.day, t.completionStatus, t.learnerHash],
    }),
  ],
)

/** Per dispatch and learner (hash of the learner key): live registrations in all and per status. */
export const dispatchLearner = pgTable(
  'dispatch_learner',
  {
    dispatchId: text('dispatch_id').notNull(),
    learnerHash: bigint('learner_hash', { mode: 'bigint' }).notNull(),
    registrations: integer('registrations').notNull().default(0),
    completed: integer('completed').notNull().default(0),
    incomplete: integer('incomplete').notNull().default(0),
    notAttempted: integer('not_attempted').notNull().default(0),
  },
  (t) => [
    primaryKey({ name: 'dispatch_learner_pkey', columns: [t.dispatchId, t.learnerHash] }),
    // The dispatch's repeat learners alone (migration 0048): the repeat-learners filter reads them.
    index('dispatch_learner_repeat_idx')
      .on(t.dispatchId, t.learnerHash)
      .where(sql`${t.registrations} > 1`),
  ],
)

/** The summary cards' sums over a group of live dispatches (dispatch_summary, dispatch_course_summary). */
const summaryCounters = () => ({
  dispatches: integer('dispatches').notNull().default(0),
  registrations: bigint('registrations', { mode: 'number' }).notNull().default(0),
  cappedRegistrations: bigint('capped_registrations', { mode: 'number' }).notNull().default(0),
  cappedCapacity: bigint('capped_capacity', { mode: 'number' }).notNull().default(0),
  unlimited: integer('unlimited').notNull().default(0),
  activeRegistrations: bigint('active_registrations', { mode: 'number' }).notNull().default(0),
})

/**
 * The dispatch list's summary cards per company and enabled flag, over its live dispatches,
 * kept by statement-level triggers on `dispatch` and `registration` (migration 0008); `version`
 * changes with every statement that writes the company's dispatches (client list pages cache
 * per the company's value).
 */
export const dispatchSummary = pgTable(
  'dispatch_summary',
  {
    companyId: text('company_id').notNull(),
    enabled: boolean('enabled').notNull(),
    version: bigint('version', { mode: 'number' }).notNull().default(0),
    ...summaryCounters(),
  },
  (t) => [primaryKey({ name: 'dispatch_summary_pkey', columns: [t.companyId, t.enabled] })],
)

/**
 * dispatch_summary summed over every company, one row per enabled flag: what a staff page's
 * summary reads instead of every company's rows. Kept by statement-level triggers on
 * dispatch_summary (migration 0051).
 */
export const dispatchSummaryTotal = pgTable('dispatch_summary_total', {
  enabled: boolean('enabled').primaryKey(),
  ...summaryCounters(),
})

/**
 * Live dispatches per sort key of the staff list and enabled flag: `sort` 'client' counts by
 * company name (destination_key), 'course' by course title (course_key). A deep staff page is
 * placed by them (dispatches-page.sql.ts). Kept by statement-level triggers on `dispatch`
 * (migration 0052).
 */
export const dispatchSortCount = pgTable(
  'dispatch_sort_count',
  {
    sort: text('sort').notNull(),
    key: text('key').notNull(),
    enabled: boolean('enabled').notNull(),
    dispatches: integer('dispatches').notNull().default(0),
  },
  (t) => [
    primaryKey({ name: 'dispatch_sort_count_pkey', columns: [t.sort, t.key, t.enabled] }),
    index('dispatch_sort_count_flag_idx').on(t.sort, t.enabled, t.key),
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

/** dispatch_summary per course instead of company (no version): a search by course title sums these. */
export const dispatchCourseSummary = pgTable(
  'dispatch_course_summary',
  {
    courseId: text('course_id').notNull(),
    enabled: boolean('enabled').notNull(),
    ...summaryCounters(),
  },
  (t) => [primaryKey({ name: 'dispatch_course_summary_pkey', columns: [t.courseId, t.enabled] })],
)

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
    /**
     * 64-bit hash of the learner key (the e-mail, case-insensitively, else the learner id):
     * carried by the report indexes so distinct learners over a date window are counted from an
     * index-only scan (migration 0008). Two learners sharing a hash would count as one; at 2^64
     * values that is about 3 in 10^10 for a dispatch of 100,000 learners.
     */
    learnerHash: bigint('learner_hash', { mode: 'bigint' }).generatedAlwaysAs(
      sql`hashtextextended(CASE WHEN "learner_email" <> '' THEN 'e:' || lower("learner_email") ELSE 'i:' || "learner_id" END, 0)`,
    ),
  },
  (t) => [
    // The completion report's order (last access newest first, never-accessed last, then id),
    // alone and after the status filter, over live rows: a page's id look-up and the totals of a
    // date window are index-only scans (migration 0008, with learner_hash as an INCLUDE column).
    index('registration_report_idx')
      .on(t.dispatchId, t.lastAccessDate.desc().nullsLast(), t.id)
      .where(sql`${t.removedAt} is null`),
    index('registration_report_status_idx')
      .on(t.dispatchId, t.completionStatus, t.lastAccessDate.desc().nullsLast(), t.id)
      .where(sql`${t.removedAt} is null`),
    index('registration_course_id_idx').on(t.courseId),
    // registration_created_idx, registration_first_access_idx and registration_completed_idx
    // (dispatch, date; migration 0037) serve the monthly usage statements.
    // registration_learner_status_search_idx (gin: dispatch_id, completion_status, learner
    // text trigrams) is made by migration 0020 (0008's without the status before it) where
    // pg_trgm and btree_gin exist.
  ],
)

/**
 * A dispatch's licence history (migration 0036): one row per change of cap, expiry, enabled flag
 * or counter reset (and one on creation), written by triggers on `dispatch` in the change's own
 * transaction, with the actor the writer named (db/change-actor.ts) or the sync.
 */
export const dispatchHistory = pgTable(
  'dispatch_history',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    dispatchId: text('dispatch_id').notNull(),
    companyId: text('company_id').notNull(),
    occurredAt: tz('occurred_at').notNull().defaultNow(),
    /** created | cap | expiry | enabled | count_reset */
    kind: text('kind').notNull(),
    oldValue: text('old_value'),
    newValue: text('new_value'),
    countBefore: integer('count_before'),
    countAfter: integer('count_after').notNull(),
    capBefore: integer('cap_before'),
    capAfter: integer('cap_after').notNull(),
    actorKind: text('actor_kind').notNull(),
    actorId: text('actor_id'),
    actorLabel: text('actor_label').notNull(),
    actorEmail: text('actor_email'),
  },
  (t) => [index('dispatch_history_dispatch_idx').on(t.dispatchId, t.occurredAt, t.id)],
)
