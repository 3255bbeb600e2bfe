import type { CourseRequest, CreateCourseRequest } from '@portal/shared'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { courseKeys } from './query-keys'

/** POST /api/course-requests (clients): the company is the signed-in user's, set by the server. */
export function createCourseRequest(body: CreateCourseRequest): Promise<CourseRequest> {
  return api.post<CourseRequest>('/api/course-requests', body)
}

/** `onCreated` lets the route refresh other features' lists (features never import each other). */
export function useCreateCourseRequest(courseId: string, onCreated?: () => void) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: createCourseRequest,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: courseKeys.detail(courseId) })
      onCreated?.()
    },
  })
}
