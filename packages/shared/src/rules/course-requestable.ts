import type { Role } from '../roles'

/** docs/product-rules.md §3 course request status values. */
export const COURSE_REQUEST_STATUSES = ['PENDING', 'PROCESSED', 'COMPLETED'] as const
export type CourseRequestStatus = (typeof COURSE_REQUEST_STATUSES)[number]

/**
 * docs/product-rules.md §4: for a client a course is requestable only if it is flagged requestable and the
 * client's company has no dispatch of it yet. The catalogue, the details screen and
 * POST /api/course-requests all ask this one function.
 */
export function isRequestable(course: { isRequestable: boolean }, companyHasDispatch: boolean): boolean {
  return course.isRequestable && !companyHasDispatch
}

/** docs/product-rules.md §2 demo link: admin always; others once one of their requests for the course is PROCESSED or COMPLETED. */
export function unlocksDemo(status: string): boolean {
  return status === 'PROCESSED' || status === 'COMPLETED'
}

export function canSeeDemo(role: Role, requestStatuses: readonly string[]): boolean {
  return role === 'admin' || requestStatuses.some(unlocksDemo)
}

/** docs/product-rules.md §5 / §9: licenses default and minimum 1. */
export const MIN_LICENSES = 1
export const MAX_LICENSES = 1_000_000

/**
 * The refusal of a number of licenses out of range; names both limits (the request form and
 * POST /api/course-requests say the same).
 */
export const LICENSES_RANGE_MESSAGE = `Licenses must be a whole number from ${MIN_LICENSES} to ${MAX_LICENSES.toLocaleString('en-US')}.`

/** A decimal number as a person or a number input writes it, exponent included ("1e11"). */
const NUMERIC = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?\s*$/i

/**
 * docs/product-rules.md §5: "licenses is a number, minimum 1, non-numeric falls back to 1". A whole number is
 * taken as it is (a fraction is cut to its whole part); anything that is not a number becomes 1.
 * Returns null for a number below 1 or above MAX_LICENSES, which callers refuse with
 * LICENSES_RANGE_MESSAGE: the fallback is for text that is not a number, never for a number
 * that is too large.
 */
export function toLicenses(value: unknown): number | null {
  const parsed =
    typeof value === 'number' ? value : typeof value === 'string' && NUMERIC.test(value) ? Number(value) : Number.NaN
  if (Number.isNaN(parsed)) return MIN_LICENSES
  if (!Number.isFinite(parsed)) return null
  const whole = Math.trunc(parsed)
  return whole >= MIN_LICENSES && whole <= MAX_LICENSES ? whole : null
}
