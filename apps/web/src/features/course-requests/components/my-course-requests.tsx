import { FileQuestion } from 'lucide-react'
import { useMemo, useState } from 'react'
import { Banner } from '@/components/ui/banner'
import { EmptyState } from '@/components/ui/empty-state'
import { Spinner } from '@/components/ui/spinner'
import { errorMessage } from '@/lib/api-error'
import { useCourseRequests } from '../api/get-course-requests'
import { useIsWideScreen } from '@/components/ui/use-is-wide-screen'
import type { StatusFilter } from '../types'
import { countByStatus, filterRequests } from '../utils/filter-requests'
import { MyRequestsCards, MyRequestsTable } from './my-requests-list'
import { RequestFilters } from './request-filters'
import { RequestSummaryCards } from './request-summary-cards'

export const FETCH_REQUESTS_FAILED = 'Failed to fetch course requests'

/** SPEC §2 "My Course Requests" (client): the requests this user made, with the admin's notes. */
export function MyCourseRequests() {
  const { data, error, isPending, isFetching, refetch } = useCourseRequests()
  const [search, setSearch] = useState('')
  const [status, setStatus] = useState<StatusFilter>('all')
  const wide = useIsWideScreen()
  const requests = useMemo(() => data ?? [], [data])
  const shown = useMemo(() => filterRequests(requests, search, status, 'own'), [requests, search, status])
  const filtering = search.trim() !== '' || status !== 'all'

  return (
    <div className="space-y-6">
      {error && <Banner variant="error">{errorMessage(error, FETCH_REQUESTS_FAILED)}</Banner>}
      <RequestSummaryCards counts={countByStatus(requests)} />
      <RequestFilters
        search={search}
        status={status}
        placeholder="Search by course title..."
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
          description={
            filtering ? 'Try adjusting your search or filter criteria.' : 'You have not requested any courses yet.'
          }
        />
      ) : wide ? (
        <MyRequestsTable requests={shown} />
      ) : (
        <MyRequestsCards requests={shown} />
      )}
    </div>
  )
}
