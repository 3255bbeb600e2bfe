import type { CourseRequest, UpdateCourseRequestStatus } from '@portal/shared'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { courseRequestKeys } from './query-keys'

/** PUT /api/course-requests/{id}/status (admin). */
export function updateCourseRequestStatus(id: string, body: UpdateCourseRequestStatus): Promise<CourseRequest> {
  return api.put<CourseRequest>(`/api/course-requests/${encodeURIComponent(id)}/status`, body)
}

export function useUpdateCourseRequestStatus() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateCourseRequestStatus }) => updateCourseRequestStatus(id, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: courseRequestKeys.all }),
  })
}
