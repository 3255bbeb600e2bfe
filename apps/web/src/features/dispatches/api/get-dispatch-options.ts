import type { CompanyDetail, Course, CourseListResponse } from '@portal/shared'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { dispatchKeys } from './query-keys'

/** The new dispatch form's courses: the catalogue as the server sends it to an admin (hidden ones too). */
export async function getCourseOptions(): Promise<Course[]> {
  const data = await api.get<CourseListResponse | Course[]>('/api/dispatches/courses')
  return Array.isArray(data) ? data : (data.courses ?? [])
}

export function useCourseOptions(enabled = true) {
  return useQuery({ queryKey: dispatchKeys.courseOptions(), queryFn: getCourseOptions, enabled })
}

/**
 * The chosen company's detail, for the courses it has a dispatch of already. Keyed under
 * 'dispatches', so creating a dispatch refreshes it with the rest of the dispatch queries.
 */
export const companyDispatchesQueryOptions = (companyId: string) =>
  queryOptions({
    queryKey: dispatchKeys.companyDispatches(companyId),
    queryFn: () => api.get<CompanyDetail>(`/api/admin/companies/${encodeURIComponent(companyId)}`),
  })
