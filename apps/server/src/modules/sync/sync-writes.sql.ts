import { sql } from 'drizzle-orm'
import type { PgTable } from 'drizzle-orm/pg-core'
import { company, course, dispatch, registration } from '../../db/schema'
import type { CompanyRow, CourseRow, DispatchRow, RegistrationRow } from './sync.mapper'
import { recordsetUpsert, uniqueById, type UpsertSpec } from './sync.sql'

/**
 * The mirror's writes as statements and rules, read by sync.repository.ts alone: which columns
 * each sync owns, each table's upsert, the newest-copy rule of registrations, the staging table
 * of a first sync, and the settings a page's transaction runs under.
 */

/** The names dispatch rows copy from their course and their destination (company). */
export const COPIED_NAMES = {
  course: { source: course, name: sql.raw('title'), key: sql.raw('course_id'), copy: sql.raw('course_title') },
  company: {
    source: company,
    name: sql.raw('name'),
    key: sql.raw('destination_id'),
    copy: sql.raw('destination_name'),
  },
}

// The columns each sync owns, compared and overwritten; every other column is left alone.
const COURSE_KEYS = [
  'title',
  'version',
  'providerCreated',
  'providerUpdated',
  'registrationCount',
  'tags',
  'learningStandard',
  'appSource',
  'removedAt',
] as const
const COMPANY_KEYS = [
  'name',
  'providerCreated',
  'providerUpdated',
  'removedAt',
  // The destination's launchAuth (delivery settings, migration 0030).
  'launchAuthType',
  'launchAuthIpAddress',
  'launchAuthFingerprint',
  'launchAuthExpiry',
  'launchAuthSlidingExpiry',
] as const
const DISPATCH_KEYS = [
  'courseId',
  'courseTitle',
  'destinationId',
  'destinationName',
  'enabled',
  'allowNewRegistrations',
  'instanced',
  'registrationCount',
  'registrationCap',
  'expirationDate',
  'tags',
  'notes',
  'providerCreated',
  'providerUpdated',
  'registrationResetDate',
  'removedAt',
] as const
const REGISTRATION_KEYS = [
  'instance',
  'dispatchId',
  'courseId',
  'learnerId',
  'learnerFirstName',
  'learnerLastName',
  'learnerEmail',
  'completionStatus',
  'successStatus',
  'scoreScaled',
  'totalSecondsTracked',
  'firstAccessDate',
  'lastAccessDate',
  'completedDate',
  'createdDate',
  'providerUpdated',
] as const

const touched = { syncedAt: 'now()' }
/** A mirror table's upsert: every row marked synced; courses and companies also mark a change updated. */
const mirrorUpsert = <Row extends { id: string }>(
  table: PgTable,
  keys: readonly string[],
  updateExtra: Record<string, string> = touched,
  more: Pick<UpsertSpec, 'updateWhere'> & { into?: string } = {},
) => recordsetUpsert<Row>(table, { keys, insertExtra: touched, updateExtra, ...more })

const touchedAndUpdated = { syncedAt: 'now()', updatedAt: 'now()' }
export const writeCourses = mirrorUpsert<CourseRow>(course, COURSE_KEYS, touchedAndUpdated)
export const writeCompanies = mirrorUpsert<CompanyRow>(company, COMPANY_KEYS, touchedAndUpdated)
export const writeDispatches = mirrorUpsert<DispatchRow>(dispatch, DISPATCH_KEYS, touched, {
  // Not older: a listing page read before an admin's edit (which wrote the provider's newer
  // copy to the mirror) may reach the database after it; it must not undo the edit. An equal
  // date still writes: the provider does not move `updated` for every change (a counter reset).
  updateWhere: `coalesce(excluded."provider_updated", '-infinity'::timestamptz)
    >= coalesce("dispatch"."provider_updated", '-infinity'::timestamptz)`,
})
/** Where a first full listing stages its registrations (migration 0045). */
export const STAGED_REGISTRATIONS = 'registration_load'
/** Not older: (instance, provider updated) of the incoming copy at least the one stored in `table`. */
const notOlder = (
  table: string,
) => `(excluded."instance", coalesce(excluded."provider_updated", '-infinity'::timestamptz))
    >= ("${table}"."instance", coalesce("${table}"."provider_updated", '-infinity'::timestamptz))`
export const writeRegistrations = mirrorUpsert<RegistrationRow>(registration, REGISTRATION_KEYS, touched, {
  updateWhere: notOlder('registration'),
})
export const stageRegistrations = mirrorUpsert<RegistrationRow>(registration, REGISTRATION_KEYS, touched, {
  updateWhere: notOlder(STAGED_REGISTRATIONS),
  into: STAGED_REGISTRATIONS,
})

/** Ids in groups of about AGGREGATE_BUILD_ROWS rows (a larger id goes alone), in the order given. */
export function groupsOf(rows: { id: string; n: number }[]): string[][] {
  const groups: string[][] = []
  let size = Infinity
  for (const { id, n } of rows) {
    if (size + Number(n) > AGGREGATE_BUILD_ROWS) {
      groups.push([])
      size = 0
    }
    groups[groups.length - 1]!.push(id)
    size += Number(n)
  }
  return groups
}

/** `ids` as SQL a `where … in (…)` reads: one JSON parameter however many. */
export const idList = (ids: string[]) => sql`(select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))`

/** Positive when `a` is newer by (instance, provider updated); a missing date is the oldest. */
const updatedMs = (r: RegistrationRow) => r.providerUpdated?.getTime() ?? Number.MIN_SAFE_INTEGER
const newer = (a: RegistrationRow, b: RegistrationRow) => a.instance - b.instance || updatedMs(a) - updatedMs(b)
/** One row per registration, the newest copy (a later one on a tie). */
export const newestById = <T extends RegistrationRow>(rows: T[]) =>
  uniqueById(rows, (a, b) => (newer(b, a) >= 0 ? b : a))

/** A transaction whose commit need not wait for the disk (see commitWithoutWaiting). */
export const COMMIT_WITHOUT_WAITING_SQL = sql`set local synchronous_commit = off`

/**
 * A full registration listing defers the learner aggregate of companies that have none yet
 * (migration 0021): each page's transaction sets this, and company_learner_refresh then marks
 * such a company `building` instead of upserting its learners page by page.
 */
export const DEFER_LEARNERS_SQL = sql`select set_config('portal.learners_deferred', 'on', true)`

/**
 * The same for the dispatch aggregates (migration 0044): a dispatch without a live registration
 * counted is marked `building`, the triggers leave its deltas out, and dispatch_aggregates_build
 * adds them all at the end of the listing. One statement with the learners' setting.
 */
export const DEFER_AGGREGATES_SQL = sql`select set_config('portal.learners_deferred', 'on', true),
  set_config('portal.dispatch_aggregates_deferred', 'on', true)`

/**
 * From this many registrations, a first sync fills `registration` and `company_learner` with
 * their secondary indexes set aside and built once after (db/indexes-aside.ts). A table of a
 * few thousand rows is filled about as fast either way, and building its indexes again is then
 * the larger cost.
 */
export const BULK_INDEX_ROWS = 50_000

/** Index builds at once when a first sync's indexes are built again. */
export const INDEX_BUILDS_AT_ONCE = 2

/** The tables a first sync may fill with their indexes set aside. */
export type BulkTable = 'registration' | 'company_learner'

/** Registrations per transaction of the deferred dispatch aggregate builds (a larger dispatch goes alone). */
export const AGGREGATE_BUILD_ROWS = 20_000

/** A build of the largest company reads all its registrations: more than a request's 30 s may be needed. */
export const BUILD_TIMEOUT = '15min'
