import type { CourseRequestListQuery } from '@portal/shared'

/** Every course-request query starts with 'course-requests', so one invalidation refreshes them all. */
export const courseRequestKeys = {
  all: ['course-requests'] as const,
  list: (query: CourseRequestListQuery = {}) => ['course-requests', 'list', query] as const,
  courseDemo: (courseId: string) => ['course-requests', 'course-demo', courseId] as const,
}
