import { dayEndExclusive } from '@portal/shared'

/** Rows of one UTC day (YYYY-MM-DD) that match a filter, as counts kept by triggers give them. */
export interface DayCount {
  day: string
  rows: number
}

/** The UTC day (YYYY-MM-DD) of an instant: the key of the kept day counts. */
export const dayOf = (date: Date) => date.toISOString().slice(0, 10)

/**
 * Where a deep page of a list ordered newest first starts, found from the list's kept day counts
 * (newest day first, exact): the end of the day that holds the page's first row, and how many
 * rows the newer days hold. Reading the list from that day's end on, `offset - skipped` rows in,
 * walks the index within one day at most instead of over every newer row, so a page's cost does
 * not grow with the list.
 *
 * Null when the page starts in the first day, beyond the counted rows (rows without a day, such
 * as never-accessed registrations, come last), or when the day's end is not earlier than the
 * filter's own upper bound `before`.
 */
export function seekDay(
  days: readonly DayCount[],
  offset: number,
  before?: Date,
): { before: Date; skipped: number } | null {
  let newer = 0
  for (const day of days) {
    if (newer + day.rows > offset) {
      if (newer === 0) return null
      const end = dayEndExclusive(day.day)
      if (!end || (before && end >= before)) return null
      return { before: end, skipped: newer }
    }
    newer += day.rows
  }
  return null
}

/**
 * The start (UTC midnight) of the day that holds row `index` (0-based, newest first) of a list
 * with these kept day counts (newest day first, exact), or null when the counted rows end
 * before it. A page that ends at that row lies at or after that instant, so the page's
 * statement may say so: the month partitions before it are pruned when the statement is
 * planned, rather than each planned and probed for a row it cannot hold.
 */
export function dayStartOfRow(days: readonly DayCount[], index: number): Date | null {
  let rows = 0
  for (const day of days) {
    rows += day.rows
    if (rows > index) return new Date(`${day.day}T00:00:00.000Z`)
  }
  return null
}
