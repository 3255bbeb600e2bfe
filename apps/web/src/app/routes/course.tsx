import { useQueryClient } from '@tanstack/react-query'
import { useCallback } from 'react'
import { useParams, useSearchParams } from 'react-router'
import { logAction } from '@/features/activity/api/log-action'
import { useUser } from '@/features/auth/components/auth-context'
import { courseRequestKeys } from '@/features/course-requests/api/query-keys'
import { CourseDetailsScreen } from '@/features/courses/components/course-details'
import type { UiEventHandler } from '@/types/ui-event'

const recordUiEvent: UiEventHandler = (action, details) => void logAction(action, details)

/** docs/product-rules.md §2 /courses/{id}; `?request=true` opens the request form at once. */
export default function CourseRoute() {
  const { id = '' } = useParams()
  const [searchParams] = useSearchParams()
  const user = useUser()
  const queryClient = useQueryClient()
  // A new request belongs in My Course Requests: refresh that feature's lists.
  const onRequestSubmitted = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: courseRequestKeys.all }),
    [queryClient],
  )
  return (
    <CourseDetailsScreen
      key={id}
      id={id}
      role={user.role}
      openRequest={searchParams.get('request') === 'true'}
      onEvent={recordUiEvent}
      onRequestSubmitted={onRequestSubmitted}
    />
  )
}
