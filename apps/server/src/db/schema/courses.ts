import { sql } from 'drizzle-orm'
import { boolean, check, index, integer, pgTable, text } from 'drizzle-orm/pg-core'
import { companyRef, userRef } from './users'
import { lowered, timestamps, tz, uuidId } from './columns'

/**
 * Provider-owned fields are refreshed by sync; portal-owned fields (docs/product-decisions.md D3) are never
 * written by it. The two groups are kept apart below.
 */
export const course = pgTable(
  'course',
  {
    id: text('id').primaryKey(),
    // provider-owned
    title: text('title').notNull(),
    version: integer('version'),
    providerCreated: tz('provider_created'),
    providerUpdated: tz('provider_updated'),
    registrationCount: integer('registration_count').notNull().default(0),
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    learningStandard: text('learning_standard'),
    appSource: text('app_source'),
    removedAt: tz('removed_at'),
    syncedAt: tz('synced_at'),
    // portal-owned
    /**
     * An admin's title. `title` is provider-owned and the sync refreshes it, so the
     * edit form writes here; screens show title_override ?? title.
     */
    titleOverride: text('title_override'),
    /** title and title_override lowered (migration 0022), for the dispatch list's search. */
    titleKey: lowered('title_key', 'title').notNull(),
    titleOverrideKey: lowered('title_override_key', 'title_override'),
    isVisible: boolean('is_visible').notNull().default(false),
    isRequestable: boolean('is_requestable').notNull().default(true),
    summary: text('summary').notNull().default(''),
    description: text('description').notNull().default(''),
    imageUrl: text('image_url'),
    duration: text('duration').notNull().default(''),
    level: text('level').notNull().default(''),
    demoUrl: text('demo_url'),
    ...timestamps(),
  },
  (t) => [
    index('course_title_idx').on(sql`lower(${t.title})`),
    index('course_is_visible_idx').on(t.isVisible),
    check('course_level_check', sql`${t.level} in ('', 'Beginner', 'Intermediate', 'Advanced')`),
  ],
)

export const courseRequest = pgTable(
  'course_request',
  {
    id: uuidId(),
    courseId: text('course_id')
      .notNull()
      .references(() => course.id),
    courseTitle: text('course_title').notNull(),
    userId: userRef('user_id', 'set null'),
    companyId: companyRef('set null'),
    /** Kept on the row so a request stays readable after its requestor is deleted. */
    requestorName: text('requestor_name').notNull(),
    requestorEmail: text('requestor_email').notNull(),
    licenses: integer('licenses').notNull().default(1),
    notes: text('notes').notNull().default(''),
    status: text('status').notNull().default('PENDING'),
    adminNotes: text('admin_notes').notNull().default(''),
    demoUrl: text('demo_url'),
    ...timestamps(),
    /** The dispatch that fulfilled the request. */
    dispatchId: text('dispatch_id'),
    /** A fulfilment under way (its target), kept until the request is PROCESSED. */
    fulfilMode: text('fulfil_mode'),
    fulfilDispatchId: text('fulfil_dispatch_id'),
    fulfilRegistrationCap: integer('fulfil_registration_cap'),
  },
  (t) => [
    index('course_request_user_id_idx').on(t.userId, t.createdAt),
    index('course_request_company_id_idx').on(t.companyId, t.courseId),
    index('course_request_course_id_idx').on(t.courseId),
    index('course_request_created_at_idx').on(t.createdAt),
    check('course_request_licenses_check', sql`${t.licenses} >= 1`),
    check('course_request_status_check', sql`${t.status} in ('PENDING','PROCESSED','COMPLETED')`),
    check('course_request_fulfil_mode_check', sql`${t.fulfilMode} is null or ${t.fulfilMode} in ('create', 'add')`),
  ],
)
