/** Activity Logs rules (docs/product-rules.md §2, §3, §5, §7, §8), shared by the log screen and the server's export. */

export const LOG_MESSAGES = {
  endBeforeStart: 'End date cannot be before start date.',
  invalidDate: 'Invalid date. Use YYYY-MM-DD.',
  fetchFailed: 'Failed to fetch logs',
  downloadFailed: 'Failed to download logs CSV',
  nothingToDownload: 'No logs found matching the current filters to download',
  empty: 'No logs found matching your criteria.',
} as const

/** docs/product-rules.md §9: 50 logs a page; the API allows up to 200. */
export const LOG_PAGE_SIZE = 50
export const LOG_MAX_PAGE_SIZE = 200
/** docs/product-rules.md §9: the search box waits 500 ms after the last keystroke. */
export const LOG_SEARCH_DEBOUNCE_MS = 500
/**
 * docs/decisions.md: totals are counted exactly up to this many matching rows, and
 * `getAll=true` returns at most this many (larger sets: the streamed CSV export).
 */
export const LOG_COUNT_CAP = 100_000
/**
 * A search's total is exact up to this many matches, and shown as "1,000+" past it
 * (each match counted is a row visit: a term in 10,000 rows cost 10,000 visits per request).
 * Totals without a search are exact at any size (kept per day).
 */
export const LOG_SEARCH_COUNT_CAP = 1_000

/** docs/product-rules.md §7: the export's file name and columns. */
export const LOG_CSV_FILENAME = 'activity_logs_filtered.csv'
export const LOG_CSV_COLUMNS = ['Timestamp', 'User Name', 'User Email', 'Action', 'Details', 'IP Address'] as const

export const NO_LOG_USER = 'System/Unknown'
export const INVALID_DETAILS = 'Invalid details format'
export const NO_DETAILS = 'N/A'

const DAY = /^\d{4}-\d{2}-\d{2}$/

/** A real calendar day written YYYY-MM-DD (2026-02-30 is not one). */
export function isCalendarDay(value: string): boolean {
  if (!DAY.test(value)) return false
  const date = new Date(`${value}T00:00:00.000Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value
}

/** docs/product-rules.md §5: the end date may not be before the start date; either may be empty. */
export function logDateRangeError(startDate?: string | null, endDate?: string | null): string | null {
  if ((startDate && !isCalendarDay(startDate)) || (endDate && !isCalendarDay(endDate))) return LOG_MESSAGES.invalidDate
  // ISO days compare as strings.
  if (startDate && endDate && endDate < startDate) return LOG_MESSAGES.endBeforeStart
  return null
}

/** docs/product-rules.md §2: "name (email)", or System/Unknown when the row has no user. */
export function logUserText(user: { name: string | null; email: string | null } | null | undefined): string {
  if (!user || (!user.name && !user.email)) return NO_LOG_USER
  if (!user.email) return user.name!
  if (!user.name) return user.email
  return `${user.name} (${user.email})`
}

/**
 * docs/product-rules.md §3 / §8: a string is its own message, an object is shown as JSON text, absent is N/A,
 * anything else (a number, a boolean) is Invalid details format.
 */
export function logDetailsText(details: unknown): string {
  if (details === null || details === undefined || details === '') return NO_DETAILS
  if (typeof details === 'string') return details
  if (typeof details === 'object') {
    try {
      return JSON.stringify(details)
    } catch {
      return INVALID_DETAILS // e.g. a cycle: cannot come from JSON, but never throw while rendering
    }
  }
  return INVALID_DETAILS
}
