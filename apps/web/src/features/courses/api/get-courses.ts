import type { Course, CourseListResponse } from '@portal/shared'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { courseKeys } from './query-keys'

/**
 * docs/product-rules.md §7: the answer may be an array, an object with `courses`, or an object holding an
 * array; docs/product-rules.md §8: another shape is tolerated with a console warning (an empty catalogue).
 */
export function toCourseList(data: unknown): CourseListResponse {
  if (Array.isArray(data)) return { courses: data as Course[], lastSyncedAt: null }
  if (data && typeof data === 'object') {
    const record = data as Record<string, unknown>
    const lastSyncedAt = typeof record.lastSyncedAt === 'string' ? record.lastSyncedAt : null
    if (Array.isArray(record.courses)) return { courses: record.courses as Course[], lastSyncedAt }
    const list = Object.values(record).find(Array.isArray)
    if (list) return { courses: list as Course[], lastSyncedAt }
  }
  console.warn('Unexpected course list response format', data)
  return { courses: [], lastSyncedAt: null }
}

export async function getCourses(): Promise<CourseListResponse> {
  return toCourseList(await api.get<unknown>('/api/dispatches/courses'))
}

export const coursesQueryOptions = () => queryOptions({ queryKey: courseKeys.list(), queryFn: getCourses })

export function useCourses() {
  return useQuery(coursesQueryOptions())
}
