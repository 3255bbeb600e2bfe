import type { CourseDetails, CourseVisibilityResponse } from '@portal/shared'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { courseKeys } from './query-keys'

/** PUT /api/courses/{id}/visibility (admin). */
export function updateCourseVisibility(id: string, isVisible: boolean): Promise<CourseVisibilityResponse> {
  return api.put<CourseVisibilityResponse>(`/api/courses/${encodeURIComponent(id)}/visibility`, { isVisible })
}

export function useUpdateCourseVisibility(id: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (isVisible: boolean) => updateCourseVisibility(id, isVisible),
    onSuccess: ({ isVisible }) => {
      queryClient.setQueryData<CourseDetails>(courseKeys.detail(id), (old) => (old ? { ...old, isVisible } : old))
      void queryClient.invalidateQueries({ queryKey: courseKeys.list() })
    },
  })
}
