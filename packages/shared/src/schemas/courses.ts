import { Type, type Static } from 'typebox'
import { IntegerFields, Nullable, OneOf } from './common'
import { DispatchFiguresFields } from './dispatches'

/** docs/product-rules.md §2 edit form: level is one of three, or empty. */
export const COURSE_LEVELS = ['Beginner', 'Intermediate', 'Advanced'] as const
export const COURSE_LEVEL_OPTIONS = ['', ...COURSE_LEVELS] as const
export type CourseLevel = (typeof COURSE_LEVEL_OPTIONS)[number]

/** docs/product-rules.md §3 / §9: the version shown when the provider sends none. */
export const DEFAULT_COURSE_VERSION = '1.0'

/** A description (UTF-8 bytes of the HTML as sent) above this is refused with DESCRIPTION_TOO_LARGE. */
export const DESCRIPTION_MAX_BYTES = 500 * 1024
export const DESCRIPTION_TOO_LARGE = 'Description is too large.'

/**
 * docs/product-rules.md §3 Course. `title` is the admin's title when one is set, else the provider's (then
 * `Course {id}`). `appSource` reaches admins only; `requestable` and `assigned` clients only.
 */
export const CourseSchema = Type.Object({
  id: Type.String(),
  title: Type.String(),
  summary: Type.String(),
  description: Type.String(),
  imageUrl: Nullable(Type.String()),
  version: Type.String(),
  duration: Type.String(),
  level: Type.String(),
  tags: Type.Array(Type.String()),
  created: Nullable(Type.String()),
  updated: Nullable(Type.String()),
  registrationCount: Type.Integer(),
  appSource: Type.Optional(Nullable(Type.String())),
  isVisible: Type.Boolean(),
  isRequestable: Type.Boolean(),
  /** Client only: flagged requestable and no dispatch of it for the client's company (docs/product-rules.md §4). */
  requestable: Type.Optional(Type.Boolean()),
  /** Client only: the client's company has a dispatch of it. */
  assigned: Type.Optional(Type.Boolean()),
})
export type Course = Static<typeof CourseSchema>

/** GET /api/dispatches/courses: the catalogue and when the mirror last synced it. */
export const CourseListResponseSchema = Type.Object({
  courses: Type.Array(CourseSchema),
  /** End of the last successful course sync; null before the first one. */
  lastSyncedAt: Nullable(Type.String()),
})
export type CourseListResponse = Static<typeof CourseListResponseSchema>

/** A row of the details screen's Dispatches table (admin, sales, internal). */
export const CourseDispatchSchema = Type.Object({ id: Type.String(), ...DispatchFiguresFields })
export type CourseDispatch = Static<typeof CourseDispatchSchema>

/** The side panel's figures (docs/product-rules.md §2), over the course's present dispatches. */
export const CourseStatsSchema = Type.Object(IntegerFields('totalRegistrations', 'activeDispatches', 'totalDispatches'))
export type CourseStats = Static<typeof CourseStatsSchema>

/** A client's "Your Access": its company's registrations on the course and whether a dispatch is enabled. */
export const CourseAccessSchema = Type.Object({
  registrations: Type.Integer(),
  status: Type.Union([Type.Literal('Active'), Type.Literal('Inactive')]),
})
export type CourseAccess = Static<typeof CourseAccessSchema>

/**
 * GET /api/courses/{id}/details. Staff (admin, sales, internal) get `stats` and `dispatches`;
 * a client gets `access` (null without dispatches) and `canRequest`; `demoUrl` is present
 * only where docs/product-rules.md §2's demo rule allows it.
 */
export const CourseDetailsSchema = Type.Object({
  ...CourseSchema.properties,
  demoUrl: Type.Optional(Nullable(Type.String())),
  stats: Type.Optional(CourseStatsSchema),
  dispatches: Type.Optional(Type.Array(CourseDispatchSchema)),
  access: Type.Optional(Nullable(CourseAccessSchema)),
  canRequest: Type.Optional(Type.Boolean()),
})
export type CourseDetails = Static<typeof CourseDetailsSchema>

/**
 * PUT /api/courses/{id}/details (docs/product-rules.md §7 edit form). Every field optional: only those sent
 * change. URLs and the description size are checked by the service, so the answers carry
 * clear texts (and the failure is logged as COURSE_DETAIL_EDIT_FAILED).
 */
/** The edit form's limits; the form counts against them and the schema refuses past them. */
export const COURSE_TEXT_LIMITS = { title: 500, url: 2048, summary: 5000, duration: 200 } as const

export const UpdateCourseDetailsSchema = Type.Object({
  /** Empty restores the provider's title. */
  title: Type.Optional(Type.String({ maxLength: COURSE_TEXT_LIMITS.title })),
  imageUrl: Type.Optional(Type.String({ maxLength: COURSE_TEXT_LIMITS.url })),
  summary: Type.Optional(Type.String({ maxLength: COURSE_TEXT_LIMITS.summary })),
  // A bound of its own; the service's byte check (DESCRIPTION_MAX_BYTES) is the finer
  // one, with its clear message: characters never outnumber UTF-8 bytes.
  description: Type.Optional(Type.String({ maxLength: 2 * DESCRIPTION_MAX_BYTES })),
  duration: Type.Optional(Type.String({ maxLength: COURSE_TEXT_LIMITS.duration })),
  level: Type.Optional(OneOf(COURSE_LEVEL_OPTIONS)),
  isRequestable: Type.Optional(Type.Boolean()),
  demoUrl: Type.Optional(Type.String({ maxLength: COURSE_TEXT_LIMITS.url })),
})
export type UpdateCourseDetails = Static<typeof UpdateCourseDetailsSchema>

/** PUT /api/courses/{id}/visibility. */
export const UpdateCourseVisibilitySchema = Type.Object({ isVisible: Type.Boolean() })
export type UpdateCourseVisibility = Static<typeof UpdateCourseVisibilitySchema>
export const CourseVisibilityResponseSchema = Type.Object({ id: Type.String(), isVisible: Type.Boolean() })
export type CourseVisibilityResponse = Static<typeof CourseVisibilityResponseSchema>

export const COURSE_EDIT_MESSAGES = {
  invalidDemoUrl: 'Demo URL must be an http or https URL.',
  invalidImageUrl: 'Image URL must be an http or https URL.',
  descriptionTooLarge: DESCRIPTION_TOO_LARGE,
} as const
