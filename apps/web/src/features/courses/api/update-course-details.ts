import type { CourseDetails, UpdateCourseDetails } from '@portal/shared'
import { api } from '@/lib/api-client'
import { useSavingMutation } from '@/lib/saving-mutation'
import { courseKeys } from './query-keys'

/** PUT /api/courses/{id}/details (admin). The server sanitises the description again. */
export function updateCourseDetails(id: string, body: UpdateCourseDetails): Promise<CourseDetails> {
  return api.put<CourseDetails>(`/api/courses/${encodeURIComponent(id)}/details`, body)
}

export function useUpdateCourseDetails(id: string) {
  return useSavingMutation((body: UpdateCourseDetails) => updateCourseDetails(id, body), courseKeys.detail(id), [
    courseKeys.list(),
  ])
}
