import type { CourseRequestStatus } from '@portal/shared'

export type StatusFilter = 'all' | CourseRequestStatus

/** docs/product-rules.md §2: status labels of the filters, badges and summary cards. */
export const STATUS_LABELS: Record<CourseRequestStatus, string> = {
  PENDING: 'Pending',
  PROCESSED: 'Processed',
  COMPLETED: 'Completed',
}
