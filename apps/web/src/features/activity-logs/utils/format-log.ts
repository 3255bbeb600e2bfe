import { NOT_AVAILABLE } from '@portal/shared'
import { format } from 'date-fns'

/** docs/product-rules.md §8: in the logs an unparseable date reads Invalid Date, a missing one N/A. */
export function formatLogTime(value: string | null | undefined): string {
  if (!value) return NOT_AVAILABLE
  const date = new Date(value)
  if (Number.isNaN(date.getTime())) return 'Invalid Date'
  return format(date, 'yyyy-MM-dd HH:mm:ss')
}
