import type { CourseRequest } from '@portal/shared'
import { FileQuestion } from 'lucide-react'
import { useMemo, useState, type ReactNode } from 'react'
import { Banner } from '@/components/ui/banner'
import { EmptyState } from '@/components/ui/empty-state'
import { Spinner } from '@/components/ui/spinner'
import { useIsWideScreen } from '@/components/ui/use-is-wide-screen'
import { errorMessage } from '@/lib/api-error'
import { useCourseRequests } from '../api/get-course-requests'
import type { StatusFilter } from '../types'
import { filterRequests } from '../utils/filter-requests'
import { RequestFilters } from './request-filters'

export const FETCH_REQUESTS_FAILED = 'Failed to fetch course requests'
const ADJUST_FILTERS = 'Try adjusting your search or filter criteria.'

/**
 * The body both request screens share: the requests, searched and filtered by status, with
 * Refresh, a loading and an empty state, and the list as a table or as cards.
 */
export function RequestsBrowser({
  scope,
  placeholder,
  emptyWithoutFilters = ADJUST_FILTERS,
  above,
  list,
  children,
}: {
  /** 'own' searches the course title only; 'all' the requestor and the company too. */
  scope: 'own' | 'all'
  placeholder: string
  /** What the empty state says when no search or filter is applied. */
  emptyWithoutFilters?: string
  /** Shown above the filters, given every request (the client's summary cards). */
  above?: (requests: CourseRequest[]) => ReactNode
  list: (requests: CourseRequest[], wide: boolean) => ReactNode
  /** After the list (the admin's modal and toast). */
  children?: ReactNode
}) {
  const { data, error, isPending, isFetching, refetch } = useCourseRequests()
  const [search, setSearch] = useState('')
  const [status, setStatus] = useState<StatusFilter>('all')
  const wide = useIsWideScreen()
  const requests = useMemo(() => data ?? [], [data])
  const shown = useMemo(() => filterRequests(requests, search, status, scope), [requests, search, status, scope])
  const filtering = search.trim() !== '' || status !== 'all'

  return (
    <div className="space-y-6">
      {error && <Banner variant="error">{errorMessage(error, FETCH_REQUESTS_FAILED)}</Banner>}
      {above?.(requests)}
      <RequestFilters
        search={search}
        status={status}
        placeholder={placeholder}
        refreshing={isFetching}
        onSearch={setSearch}
        onStatus={setStatus}
        onRefresh={() => void refetch()}
      />
      {isPending ? (
        <Spinner label="Loading course requests..." className="py-12" />
      ) : error && !data ? null : shown.length === 0 ? (
        <EmptyState
          icon={FileQuestion}
          title="No requests found"
          description={filtering ? ADJUST_FILTERS : emptyWithoutFilters}
        />
      ) : (
        list(shown, wide)
      )}
      {children}
    </div>
  )
}
