import { COURSE_REQUEST_STATUSES, type CourseRequest, type CourseRequestStatus } from '@portal/shared'
import type { StatusFilter } from '../types'

const includes = (value: string | null | undefined, term: string) => (value ?? '').toLowerCase().includes(term)

/**
 * Case-insensitive search over the given fields, then the status filter. My Course Requests
 * searches the course title; the staff screen the course, the requestor and the company (docs/product-rules.md §2).
 */
export function filterRequests(
  requests: readonly CourseRequest[],
  search: string,
  status: StatusFilter,
  scope: 'own' | 'all',
): CourseRequest[] {
  const term = search.trim().toLowerCase()
  return requests.filter((r) => {
    if (status !== 'all' && r.status !== status) return false
    if (!term) return true
    if (includes(r.courseTitle, term)) return true
    return (
      scope === 'all' && (includes(r.userName, term) || includes(r.userEmail, term) || includes(r.companyName, term))
    )
  })
}

export function countByStatus(requests: readonly CourseRequest[]): Record<CourseRequestStatus, number> {
  const counts = Object.fromEntries(COURSE_REQUEST_STATUSES.map((s) => [s, 0])) as Record<CourseRequestStatus, number>
  for (const r of requests) if (r.status in counts) counts[r.status] += 1
  return counts
}
