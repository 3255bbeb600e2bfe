import { Type, type Static } from 'typebox'
import { Nullable, OneOf, ProviderIdSchema } from './common'

/** Bounds shared by the create form and the server (the same as the admin edit). */
export const DISPATCH_CAP_MAX = 10_000_000
export const DISPATCH_NOTES_MAX = 5000
export const DISPATCH_TAG_MAX = 100
export const DISPATCH_TAGS_MAX = 50

/** A cap typed in a form: the whole number, or null when it is not one from 0 to DISPATCH_CAP_MAX. */
export function parseDispatchCap(text: string): number | null {
  const cap = Number(text)
  return text.trim() !== '' && Number.isInteger(cap) && cap >= 0 && cap <= DISPATCH_CAP_MAX ? cap : null
}

/** "License cap must be a whole number from 0 to 10,000,000.", under the form's own label. */
export const dispatchCapMessage = (label: string) =>
  `${label} must be a whole number from 0 to ${DISPATCH_CAP_MAX.toLocaleString('en-US')}.`

/**
 * POST /api/dispatches (admin): a new dispatch of a course to a company. A cap of 0, null or
 * none means unlimited; the expiry is YYYY-MM-DD or an ISO date-time (empty or null: none).
 */
export const CreateDispatchBodySchema = Type.Object({
  companyId: ProviderIdSchema,
  courseId: ProviderIdSchema,
  registrationCap: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: DISPATCH_CAP_MAX }))),
  expirationDate: Type.Optional(Nullable(Type.String({ maxLength: 40 }))),
  enabled: Type.Optional(Type.Boolean()),
  notes: Type.Optional(Type.String({ maxLength: DISPATCH_NOTES_MAX })),
  tags: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: DISPATCH_TAG_MAX }), { maxItems: DISPATCH_TAGS_MAX }),
  ),
})
export type CreateDispatchBody = Static<typeof CreateDispatchBodySchema>

/**
 * POST /api/dispatches may carry an Idempotency-Key: the create form makes one per submission
 * and sends it again when the user retries, so a create SCORM Cloud applied but whose answer
 * was lost is answered as created on the retry, not as a conflict with itself.
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key'
export const IdempotencyHeadersSchema = Type.Object({
  'idempotency-key': Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{8,128}$' })),
})
export type IdempotencyHeaders = Static<typeof IdempotencyHeadersSchema>

/**
 * POST /api/course-requests/{id}/fulfil (admin). `create`: a new dispatch for the requestor's
 * company; `add`: raise the cap of the company's dispatch of the course. `registrationCap` is
 * the cap the dispatch ends with (default: the requested licenses, or the current cap plus them).
 */
export const FULFIL_MODES = ['create', 'add'] as const
export type FulfilMode = (typeof FULFIL_MODES)[number]
export const FulfilCourseRequestBodySchema = Type.Object({
  mode: OneOf(FULFIL_MODES),
  registrationCap: Type.Optional(Type.Integer({ minimum: 0, maximum: DISPATCH_CAP_MAX })),
})
export type FulfilCourseRequestBody = Static<typeof FulfilCourseRequestBodySchema>

/** GET /api/dispatches/packages: a client's company is its own and may be left out. */
export const CompanyPackagesQuerySchema = Type.Object({
  companyId: Type.Optional(ProviderIdSchema),
})
export type CompanyPackagesQuery = Static<typeof CompanyPackagesQuerySchema>

/** 409 of a create or a fulfilment: the pair's existing dispatch, so the screen can link to it. */
export const DispatchConflictSchema = Type.Object({
  code: Type.String(),
  message: Type.String(),
  dispatchId: Type.String(),
})
export type DispatchConflict = Static<typeof DispatchConflictSchema>

/** The zip bodies of the download routes (OpenAPI: a binary application/zip body). */
export const ZipBodySchema = Type.Unsafe<string>({ type: 'string', format: 'binary' })

export const DISPATCH_ACTION_MESSAGES = {
  companyNotFound: 'Company not found',
  courseNotFound: 'Course not found',
  companyRequired: 'Choose a company whose packages to download.',
  disabled: 'This dispatch is disabled. Contact your account manager.',
  expired: 'This dispatch has expired. Contact your account manager.',
  noCompany: 'The requestor has no company: a dispatch needs one.',
  noDispatchToAdd: 'The company has no dispatch of this course to add licenses to.',
  notConfigured: 'SCORM Cloud is not configured.',
} as const

/** 409 text naming the existing dispatch (the screen adds a link to it). */
export const dispatchExistsMessage = (companyName: string, courseTitle: string) =>
  `${companyName} already has a dispatch of ${courseTitle}.`
