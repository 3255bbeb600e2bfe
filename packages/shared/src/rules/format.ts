/**
 * Display rules of the completion report and the dispatch screens (SPEC §2, §8), shared so
 * every screen shows the same text. Pure: Intl only, no DOM.
 */

/** SPEC §8: unparseable dates show N/A (outside the logs); missing dates show N/A. */
export const NOT_AVAILABLE = 'N/A'
/** A registration without a score. */
export const NO_SCORE = '-'

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/

type DateInput = string | number | Date | null | undefined

function toDate(value: DateInput): Date | null {
  if (value === null || value === undefined || value === '') return null
  const date = value instanceof Date ? value : new Date(value)
  return Number.isNaN(date.getTime()) ? null : date
}

/**
 * "Jan 5, 2026". A bare calendar day (YYYY-MM-DD, e.g. an expiry date) is shown as that day
 * in every time zone, not shifted by the viewer's offset from UTC.
 */
export function formatDate(value: DateInput, timeZone?: string): string {
  const date = toDate(value)
  if (!date) return NOT_AVAILABLE
  const zone = typeof value === 'string' && DATE_ONLY.test(value) ? 'UTC' : timeZone
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: zone }).format(date)
}

/** "Jan 5, 2026, 9:30 AM". */
export function formatDateTime(value: DateInput, timeZone?: string): string {
  const date = toDate(value)
  if (!date) return NOT_AVAILABLE
  if (typeof value === 'string' && DATE_ONLY.test(value)) return formatDate(value)
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(date)
}

/**
 * Whole seconds as "1h 2m 3s", "2m 5s" or "45s". DECISIONS.md: the server always sends
 * seconds, so SPEC §2's "under 10 is minutes" guess for mixed units is not applied.
 */
export function formatDuration(totalSeconds: number | null | undefined): string {
  const seconds =
    typeof totalSeconds === 'number' && Number.isFinite(totalSeconds) && totalSeconds > 0 ? Math.floor(totalSeconds) : 0
  const h = Math.floor(seconds / 3600)
  const m = Math.floor((seconds % 3600) / 60)
  const s = seconds % 60
  if (h > 0) return `${h}h ${m}m ${s}s`
  if (m > 0) return `${m}m ${s}s`
  return `${s}s`
}

/** SPEC §2: a score from 0 to 1 is scaled by 100 ("0.85" → "85%"); larger values are percents already. */
export function formatScore(score: number | null | undefined): string {
  if (score === null || score === undefined || !Number.isFinite(score)) return NO_SCORE
  const percent = score >= 0 && score <= 1 ? score * 100 : score
  return `${Math.round(percent)}%`
}

/** A calendar day for an `<input type="date">`: "2026-03-31" from "2026-03-31" or "2026-03-31T00:00:00Z". */
export function toDateInputValue(value: string | null | undefined): string {
  const day = value?.slice(0, 10) ?? ''
  return DATE_ONLY.test(day) ? day : ''
}

/** SPEC §2: registrations as "count / cap", with an infinity sign when there is no cap (0 or missing). */
export function formatRegistrations(count: number, cap: number | null | undefined): string {
  return `${count} / ${cap && cap > 0 ? cap : '∞'}`
}
