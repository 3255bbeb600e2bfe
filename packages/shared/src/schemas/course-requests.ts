import { Type, type Static } from 'typebox'
import { COURSE_REQUEST_STATUSES, LICENSES_RANGE_MESSAGE } from '../rules/course-requestable'
import { FreeJson, Nullable, OneOf, OwnerCompanyFields, ProviderIdSchema } from './common'
import { COURSE_TEXT_LIMITS } from './courses'

export const CourseRequestStatusSchema = OneOf(COURSE_REQUEST_STATUSES)

/** docs/product-rules.md §5: notes are free text; this bound keeps a request readable. */
export const REQUEST_NOTES_MAX = 2000

/**
 * POST /api/course-requests (docs/product-rules.md §7). `courseTitle` is accepted and ignored: the title is
 * the course's own. `licenses` takes any value; toLicenses() applies docs/product-rules.md §5 (non-numeric
 * is 1). The company is the signed-in user's, never a body field.
 */
export const CreateCourseRequestSchema = Type.Object({
  courseId: ProviderIdSchema,
  courseTitle: Type.Optional(Type.String({ maxLength: 1000 })),
  // Any JSON value: the server's Ajv would coerce a union (null to 0, say) before the rule sees it.
  licenses: Type.Optional(
    Type.Unknown({ description: 'A whole number of at least 1; non-numeric means 1.', ...FreeJson(2, 200) }),
  ),
  notes: Type.Optional(Type.String({ maxLength: REQUEST_NOTES_MAX })),
})
export type CreateCourseRequest = Static<typeof CreateCourseRequestSchema>

/** docs/product-rules.md §3 Course request. `userName`/`userEmail`/`companyName` name the requestor and its company. */
export const CourseRequestSchema = Type.Object({
  id: Type.String(),
  courseId: Type.String(),
  courseTitle: Type.String(),
  licenses: Type.Integer(),
  notes: Type.String(),
  status: CourseRequestStatusSchema,
  adminNotes: Type.String(),
  /** For a client, present only once the request is PROCESSED or COMPLETED (docs/product-rules.md §2 demo rule). */
  demoUrl: Nullable(Type.String()),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  userName: Nullable(Type.String()),
  userEmail: Nullable(Type.String()),
  ...OwnerCompanyFields,
  /** The dispatch that fulfilled the request (the client's row links to it). */
  dispatchId: Type.Optional(Nullable(Type.String())),
  /**
   * admin and sales only: the company's present dispatch of the course, if any
   * (the modal offers "Add N licenses" to it instead of "Create dispatch").
   */
  companyDispatch: Type.Optional(
    Nullable(Type.Object({ id: Type.String(), registrationCap: Type.Integer(), registrationCount: Type.Integer() })),
  ),
})
export type CourseRequest = Static<typeof CourseRequestSchema>

export const CourseRequestListSchema = Type.Array(CourseRequestSchema)

/** GET /api/course-requests: the client filters by course (docs/product-rules.md §7). */
export const CourseRequestListQuerySchema = Type.Object({
  courseId: Type.Optional(ProviderIdSchema),
})
export type CourseRequestListQuery = Static<typeof CourseRequestListQuerySchema>

/** PUT /api/course-requests/{id}/status (admin). */
export const UpdateCourseRequestStatusSchema = Type.Object({
  status: CourseRequestStatusSchema,
  adminNotes: Type.Optional(Type.String({ maxLength: REQUEST_NOTES_MAX })),
  /** The course's demo URL as the modal shows it; empty clears it on the request. */
  demoUrl: Type.Optional(Type.String({ maxLength: COURSE_TEXT_LIMITS.url })),
})
export type UpdateCourseRequestStatus = Static<typeof UpdateCourseRequestStatusSchema>

export const COURSE_REQUEST_MESSAGES = {
  courseNotFound: 'Course not found',
  requestNotFound: 'Course request not found',
  alreadyAssigned: 'This course is already assigned to your account.',
  notRequestable: 'This course is not available for request.',
  invalidLicenses: LICENSES_RANGE_MESSAGE,
  invalidDemoUrl: 'Demo URL must be an http or https URL.',
} as const
