import type { CourseRequest, UpdateCourseRequestStatus } from '@portal/shared'
import { api } from '@/lib/api-client'
import { useRefreshingMutation } from '@/lib/refreshing-mutation'
import { courseRequestKeys } from './query-keys'

/** PUT /api/course-requests/{id}/status (admin). */
export function updateCourseRequestStatus(id: string, body: UpdateCourseRequestStatus): Promise<CourseRequest> {
  return api.put<CourseRequest>(`/api/course-requests/${encodeURIComponent(id)}/status`, body)
}

export function useUpdateCourseRequestStatus() {
  return useRefreshingMutation(
    ({ id, body }: { id: string; body: UpdateCourseRequestStatus }) => updateCourseRequestStatus(id, body),
    courseRequestKeys.all,
  )
}
