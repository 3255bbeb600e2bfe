import { isCalendarDay } from '@portal/shared'

/** docs/product-rules.md §2: date filters show and accept days written yyyy-MM-dd (the logs, and the report too). */
export const DAY_FORMAT = 'yyyy-MM-dd'

const pad = (n: number, width = 2) => String(n).padStart(width, '0')

/**
 * Strict parse of typed text: only a real calendar day written yyyy-MM-dd, with a year from
 * 1000 (what the API accepts), is a day; anything else (partial, 2026-02-30, 3/10/2026) is not.
 */
export function isFilterDay(text: string): boolean {
  return isCalendarDay(text) && !text.startsWith('0')
}

/** A yyyy-MM-dd day as local midnight, for the picker; null when empty or not a day. */
export function dayToDate(day: string): Date | null {
  if (!isFilterDay(day)) return null
  const [year, month, date] = day.split('-').map(Number) as [number, number, number]
  return new Date(year, month - 1, date)
}

/** The picker's local calendar day as yyyy-MM-dd (what the API is sent). */
export function dateToDay(date: Date): string {
  return `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`
}
