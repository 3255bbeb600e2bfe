import type { CourseDetails } from '@portal/shared'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { courseKeys } from './query-keys'

export function getCourseDetails(id: string): Promise<CourseDetails> {
  return api.get<CourseDetails>(`/api/courses/${encodeURIComponent(id)}/details`)
}

export const courseDetailsQueryOptions = (id: string) =>
  queryOptions({ queryKey: courseKeys.detail(id), queryFn: () => getCourseDetails(id) })

export function useCourseDetails(id: string) {
  return useQuery(courseDetailsQueryOptions(id))
}
