/**
 * How a log search walks back through time: the slices it reads (sized from the kept day counts
 * and the term's rate) and the key its number of matches is kept under.
 */
import { createHash } from 'node:crypto'
import { LOG_SEARCH_COUNT_CAP } from '@portal/shared'
import type { DayCount } from '../../lib/day-seek'
import type { LogSqlFilter } from './logs.repository'

export const DAY_MS = 86_400_000

/**
 * A search's page is looked for in growing slices of time back from the newest, the first a
 * day: the trigram index finds the matches of a slice together with the time index, so a page
 * costs about as many row visits as it is deep, not as many as the term has matches in all.
 */
export const FIRST_SLICE_DAYS = 1
/** A slice of at most this many rows is scanned (cheaper per row than the index); larger ones use the index. */
export const SEARCH_SCAN_ROWS = 30_000
/**
 * The same for a slice filtered by action or user: its rows lie scattered over the partition's
 * pages, so a scan reads about a page per row, where the trigram index reads a few.
 */
export const SEARCH_SCAN_ROWS_SCATTERED = 3_000

/** Rows of the kept day counts within [from, before) (whole days that overlap it: an upper bound). */
export function rowsBetween(days: DayCount[], from: Date | undefined, before: Date | undefined): number {
  const first = from ? from.toISOString().slice(0, 10) : ''
  const last = before ? new Date(before.getTime() - 1).toISOString().slice(0, 10) : '9999-12-31'
  return days.reduce((sum, d) => (d.day >= first && d.day <= last ? sum + d.rows : sum), 0)
}

/** A slice is sized for the matches still wanted, this much over (the term's rate varies). */
const SEARCH_SLICE_MARGIN = 1.25

/**
 * The span (days back from the search's end) of the next slice of a search, from the kept day
 * counts (newest first) and the term's rate so far: the days before `before` that hold the rows
 * where the matches still wanted (up to `goal` in all) should be, SEARCH_SLICE_MARGIN over; at
 * least twice the last span, so a term rarer in older rows still ends in a few slices. Null: the
 * rest at once.
 */
export function nextSpan(
  days: DayCount[],
  span: number,
  found: number,
  searched: number,
  before: Date | undefined,
  end: number,
  goal: number = LOG_SEARCH_COUNT_CAP + 1,
): number | null {
  const rate = (found + 1) / Math.max(searched, 1)
  return spanHolding(days, ((goal - found) / rate) * SEARCH_SLICE_MARGIN, before, end, 2 * span)
}

/**
 * The first slice of a search whose exact number of matches in the whole range is known (kept
 * from an earlier read): the days that should hold its page's `goal` matches at that rate,
 * SEARCH_SLICE_MARGIN over. Each slice looked up in the trigram index reads the index's entries
 * for the term again, so one slice sized from the rate costs less than a day's probe first.
 */
export function firstSpanAtRate(
  days: DayCount[],
  matches: number,
  goal: number,
  before: Date | undefined,
  end: number,
): number | null {
  const rows = days.reduce((sum, d) => sum + d.rows, 0)
  const rate = Math.max(matches, 1) / Math.max(rows, 1)
  return spanHolding(days, (goal / rate) * SEARCH_SLICE_MARGIN, before, end, FIRST_SLICE_DAYS)
}

/**
 * The span (days back from `end`) whose days before `before` hold `wanted` rows, at least
 * `least` days; null when even all of them hold fewer.
 */
function spanHolding(
  days: DayCount[],
  wanted: number,
  before: Date | undefined,
  end: number,
  least: number,
): number | null {
  const lastDay = before ? new Date(before.getTime() - 1).toISOString().slice(0, 10) : '9999-12-31'
  let rows = 0
  for (const day of days) {
    if (day.day > lastDay) continue
    rows += day.rows
    if (rows >= wanted) {
      return Math.max(least, Math.ceil((end - Date.parse(`${day.day}T00:00:00.000Z`)) / DAY_MS))
    }
  }
  return null
}

/** Totals of searches kept (a number each); the least recently used goes first. */
export const SEARCH_TOTALS_KEPT = 500

/**
 * What a search's total is kept under: its filters, its term and a digest of the kept day counts
 * of its filters without the term. Log rows are written once and never edited or deleted (a
 * truncate empties the counts too), so while those counts are the same, so are the rows the
 * search can match and its total; a row written in the filters' range changes a day's count and
 * so the key.
 */
export function searchTotalKey(filter: LogSqlFilter, days: DayCount[]): string {
  const digest = createHash('sha256')
  for (const d of days) digest.update(`${d.day}:${d.rows},`)
  const { from, before, userId, action, searchTerm } = filter
  return JSON.stringify([
    from?.toISOString(),
    before?.toISOString(),
    userId,
    action,
    searchTerm,
    digest.digest('base64url'),
  ])
}
