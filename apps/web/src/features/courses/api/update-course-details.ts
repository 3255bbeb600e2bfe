import type { CourseDetails, UpdateCourseDetails } from '@portal/shared'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { courseKeys } from './query-keys'

/** PUT /api/courses/{id}/details (admin). The server sanitises the description again. */
export function updateCourseDetails(id: string, body: UpdateCourseDetails): Promise<CourseDetails> {
  return api.put<CourseDetails>(`/api/courses/${encodeURIComponent(id)}/details`, body)
}

export function useUpdateCourseDetails(id: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: UpdateCourseDetails) => updateCourseDetails(id, body),
    onSuccess: (details) => {
      queryClient.setQueryData(courseKeys.detail(id), details)
      void queryClient.invalidateQueries({ queryKey: courseKeys.list() })
    },
  })
}
