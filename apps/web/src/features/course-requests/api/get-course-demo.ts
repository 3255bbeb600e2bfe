import type { CourseDetails } from '@portal/shared'
import { useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { courseRequestKeys } from './query-keys'

/**
 * The course's demo URL as its details hold it (docs/product-rules.md §2 modal: "taken from the course
 * details"), read through GET /api/courses/{id}/details, which gives admins the demoUrl.
 */
export async function getCourseDemoUrl(courseId: string): Promise<string | null> {
  const details = await api.get<Pick<CourseDetails, 'demoUrl'>>(`/api/courses/${encodeURIComponent(courseId)}/details`)
  return details.demoUrl || null
}

/**
 * Read afresh each time the modal opens (no cache): an admin may have just set the link in the
 * course details, and the status buttons send the value shown.
 */
export function useCourseDemoUrl(courseId: string) {
  return useQuery({
    queryKey: courseRequestKeys.courseDemo(courseId),
    queryFn: () => getCourseDemoUrl(courseId),
    staleTime: 0,
    gcTime: 0,
  })
}
