import { sql } from 'drizzle-orm'
import { bigint, boolean, doublePrecision, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core'
import { lowered, tz } from './columns'

/**
 * One row per company and learner (registration.learner_hash) over the live
 * registrations of the company's live dispatches, kept by statement-level triggers on
 * `registration` and `dispatch` (migration 0015; its indexes are there: one per sort key, a
 * trigram index for the search and a GIN index over `facets`). Read by /api/learners.
 */
export const companyLearner = pgTable(
  'company_learner',
  {
    companyId: text('company_id').notNull(),
    learnerHash: bigint('learner_hash', { mode: 'bigint' }).notNull(),
    email: text('email').notNull().default(''),
    learnerId: text('learner_id').notNull().default(''),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    registrations: integer('registrations').notNull().default(0),
    completed: integer('completed').notNull().default(0),
    incomplete: integer('incomplete').notNull().default(0),
    notAttempted: integer('not_attempted').notNull().default(0),
    /** Mean of the scored registrations' score.scaled (0..100); null when none is scored. */
    averageScore: doublePrecision('average_score'),
    totalSeconds: doublePrecision('total_seconds').notNull().default(0),
    lastAccess: tz('last_access'),
    /** c:<course id>, s:<status>, cs:<course id>:<status> of the learner's registrations. */
    facets: text('facets').array().notNull().default([]),
    /**
     * The sort keys that are not plain columns, stored (migration 0017) so that their indexes
     * (company_id, key, learner_hash) answer a page's offset alone: never-accessed learners are
     * the oldest, unscored ones below every score.
     */
    nameKey: text('name_key')
      .notNull()
      .generatedAlwaysAs(sql`lower("first_name" || ' ' || "last_name")`),
    emailKey: lowered('email_key', 'email').notNull(),
    scoreKey: doublePrecision('score_key')
      .notNull()
      .generatedAlwaysAs(sql`coalesce("average_score", -1)`),
    accessKey: tz('access_key')
      .notNull()
      .generatedAlwaysAs(sql`coalesce("last_access", '-infinity'::timestamptz)`),
  },
  (t) => [primaryKey({ name: 'company_learner_pkey', columns: [t.companyId, t.learnerHash] })],
)

/** Per company, its learners and a version that grows with each change (migration 0015). */
export const companyLearnerStat = pgTable('company_learner_stat', {
  companyId: text('company_id').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
  learners: integer('learners').notNull().default(0),
  /** Migration 0021: waiting for company_learner_build (a first full sync defers the refresh). */
  building: boolean('building').notNull().default(false),
})

/**
 * Per company and facet (c:<course>, s:<status>, cs:<course>:<status>), its learners:
 * a course or status filter's total (migration 0017, kept by company_learner_refresh).
 */
export const companyLearnerFacet = pgTable(
  'company_learner_facet',
  {
    companyId: text('company_id').notNull(),
    facet: text('facet').notNull(),
    learners: integer('learners').notNull().default(0),
  },
  (t) => [primaryKey({ name: 'company_learner_facet_pkey', columns: [t.companyId, t.facet] })],
)
