import type { CourseRequest, FulfilCourseRequestBody } from '@portal/shared'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { courseRequestKeys } from './query-keys'

/** POST /api/course-requests/{id}/fulfil: create the dispatch, or add the licenses. */
export function fulfilCourseRequest(id: string, body: FulfilCourseRequestBody): Promise<CourseRequest> {
  return api.post<CourseRequest>(`/api/course-requests/${encodeURIComponent(id)}/fulfil`, body)
}

export function useFulfilCourseRequest() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: FulfilCourseRequestBody }) => fulfilCourseRequest(id, body),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: courseRequestKeys.all })
      // The dispatch list and details show the new dispatch or cap.
      void queryClient.invalidateQueries({ queryKey: ['dispatches'] })
    },
  })
}
