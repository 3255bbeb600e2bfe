import type { CourseRequest, CourseRequestListQuery } from '@portal/shared'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { courseRequestKeys } from './query-keys'

/** docs/product-rules.md §7 "list of requests"; an object holding the list is accepted too. */
export function toRequestList(data: unknown): CourseRequest[] {
  if (Array.isArray(data)) return data as CourseRequest[]
  const list = data && typeof data === 'object' ? Object.values(data).find(Array.isArray) : undefined
  return (list as CourseRequest[] | undefined) ?? []
}

/** GET /api/course-requests: admin and sales get all, a client its own (the server decides). */
export async function getCourseRequests(query: CourseRequestListQuery = {}): Promise<CourseRequest[]> {
  return toRequestList(await api.get<unknown>('/api/course-requests', { params: query }))
}

export const courseRequestsQueryOptions = (query: CourseRequestListQuery = {}) =>
  queryOptions({ queryKey: courseRequestKeys.list(query), queryFn: () => getCourseRequests(query) })

export function useCourseRequests(query: CourseRequestListQuery = {}) {
  return useQuery(courseRequestsQueryOptions(query))
}
