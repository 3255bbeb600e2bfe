import type { CourseSyncResponse } from '@portal/shared'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { courseKeys } from './query-keys'

/** GET /api/dispatches/courses/sync (admin): the mirror's full course sync. */
export function syncCourses(): Promise<CourseSyncResponse> {
  return api.get<CourseSyncResponse>('/api/dispatches/courses/sync')
}

export function useSyncCourses() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: syncCourses,
    onSettled: () => queryClient.invalidateQueries({ queryKey: courseKeys.all }),
  })
}
