/**
 * The values every layer can hold, so bad input is refused with a 400 before any
 * query, stream or provider call rather than failing half-way as a 500.
 */

/**
 * Instants from 1000-01-01 to 9999-12-31 (UTC). PostgreSQL has no year 0 and reads neither
 * JavaScript's six-digit years (`+010000-01-01`) nor its negative ones, while JavaScript holds
 * ±275,760 years; a four-digit year from 1000 (the day filters' rule) is written
 * and read back the same way by JavaScript, PostgreSQL, PGlite and SCORM Cloud.
 */
export const EARLIEST_INSTANT = '1000-01-01T00:00:00.000Z'
export const LATEST_INSTANT = '9999-12-31T23:59:59.999Z'
const EARLIEST_MS = Date.parse(EARLIEST_INSTANT)
const LATEST_MS = Date.parse(LATEST_INSTANT)
export const INSTANT_RANGE_MESSAGE = 'must be a date from 1000-01-01 to 9999-12-31'

export function isStorableInstant(date: Date): boolean {
  const ms = date.getTime()
  return ms >= EARLIEST_MS && ms <= LATEST_MS
}

/** The nearest instant in range: a date far in the past stays in the past, a far one far. */
export function clampInstant(date: Date): Date {
  return new Date(Math.min(LATEST_MS, Math.max(EARLIEST_MS, date.getTime())))
}

const DAY_MS = 86_400_000

/**
 * The exclusive end of an inclusive UTC day filter (`< next midnight`), or null for the last
 * day of the range: no instant anything holds comes after it, and its next midnight (year
 * 10000) is one PostgreSQL cannot read from JavaScript.
 */
export function dayEndExclusive(day: string): Date | null {
  const next = Date.parse(`${day}T00:00:00.000Z`) + DAY_MS
  return next > LATEST_MS ? null : new Date(next)
}

/** PostgreSQL `integer` and SCORM Cloud's integers (Java int). */
export const INT32_MAX = 2_147_483_647

/**
 * Nesting levels any body or query may have (server's input guard); free-form fields carry
 * tighter `maxDepth` and `maxJsonLength` bounds of their own (see FreeJson in schemas/common).
 */
export const MAX_INPUT_DEPTH = 32
