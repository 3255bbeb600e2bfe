/**
 * Display rules of the completion report and the dispatch screens (docs/product-rules.md §2, §8), shared so
 * every screen shows the same text. Pure: Intl only, no DOM.
 */

/** docs/product-rules.md §8: unparseable dates show N/A (outside the logs); missing dates show N/A. */
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

/** The parts of `date` in `timeZone` (the viewer's when undefined), numbers zero-padded. */
function partsOf(date: Date, timeZone: string | undefined) {
  const parts = new Intl.DateTimeFormat('en-US', {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone,
  }).formatToParts(date)
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? ''
  return { day: `${part('year')}-${part('month')}-${part('day')}`, time: `${part('hour')}:${part('minute')}` }
}

/**
 * "2026-01-05": the portal's one date format (docs/decisions.md), the one docs/product-rules.md §2 gives the date
 * filters, so a day reads and is typed the same everywhere. A bare calendar day (YYYY-MM-DD, e.g.
 * an expiry date) is shown as that day in every time zone, not shifted by the viewer's offset.
 */
export function formatDate(value: DateInput, timeZone?: string): string {
  const date = toDate(value)
  if (!date) return NOT_AVAILABLE
  const zone = typeof value === 'string' && DATE_ONLY.test(value) ? 'UTC' : timeZone
  return partsOf(date, zone).day
}

/** "2026-01-05 09:30" (24-hour clock, the viewer's time zone). */
export function formatDateTime(value: DateInput, timeZone?: string): string {
  const date = toDate(value)
  if (!date) return NOT_AVAILABLE
  if (typeof value === 'string' && DATE_ONLY.test(value)) return formatDate(value)
  const { day, time } = partsOf(date, timeZone)
  return `${day} ${time}`
}

/**
 * Whole seconds as "1h 2m 3s", "2m 5s" or "45s". docs/product-decisions.md D25: the server always sends
 * seconds, so docs/product-rules.md §2's "under 10 is minutes" guess for mixed units is not applied.
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

/** docs/product-rules.md §2: a score from 0 to 1 is scaled by 100 ("0.85" → "85%"); larger values are percents already. */
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

/** docs/product-rules.md §2: registrations as "count / cap", with an infinity sign when there is no cap (0 or missing). */
export function formatRegistrations(count: number, cap: number | null | undefined): string {
  return `${count} / ${cap && cap > 0 ? cap : '∞'}`
}
