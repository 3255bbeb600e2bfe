import { countByStatus } from '../utils/filter-requests'
import { MyRequestsCards, MyRequestsTable } from './my-requests-list'
import { RequestSummaryCards } from './request-summary-cards'
import { RequestsBrowser } from './requests-browser'

export { FETCH_REQUESTS_FAILED } from './requests-browser'

/** docs/product-rules.md §2 "My Course Requests" (client): the requests this user made, with the admin's notes. */
export function MyCourseRequests() {
  return (
    <RequestsBrowser
      scope="own"
      placeholder="Search by course title..."
      emptyWithoutFilters="You have not requested any courses yet."
      above={(requests) => <RequestSummaryCards counts={countByStatus(requests)} />}
      list={(shown, wide) => (wide ? <MyRequestsTable requests={shown} /> : <MyRequestsCards requests={shown} />)}
    />
  )
}
