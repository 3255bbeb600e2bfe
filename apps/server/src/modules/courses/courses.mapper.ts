import { can, DEFAULT_COURSE_VERSION, isRequestable, type Course, type CourseDispatch, type Role } from '@portal/shared'
import type { CourseRow, CoursesRepository } from './courses.repository'

const iso = (d: Date | null) => (d ? d.toISOString() : null)

/** docs/product-rules.md §3: the admin's title, else the provider's, else `Course {id}`. */
export function titleOf(row: Pick<CourseRow, 'id' | 'title' | 'titleOverride'>): string {
  return row.titleOverride?.trim() || row.title.trim() || `Course ${row.id}`
}

/**
 * One course as docs/product-rules.md §3 shapes it for the caller's role: `appSource` for admins (docs/product-rules.md §6),
 * `requestable`/`assigned` for clients (`assigned`: their company has a dispatch of it).
 */
export function toCourse(row: CourseRow, role: Role, assigned = false): Course {
  const course: Course = {
    id: row.id,
    title: titleOf(row),
    summary: row.summary,
    description: row.description,
    imageUrl: row.imageUrl || null,
    version: row.version === null ? DEFAULT_COURSE_VERSION : String(row.version),
    duration: row.duration,
    level: row.level,
    tags: row.tags,
    created: iso(row.providerCreated),
    updated: iso(row.providerUpdated),
    registrationCount: row.registrationCount,
    isVisible: row.isVisible,
    isRequestable: row.isRequestable,
  }
  if (can(role, 'course.readAppSource')) course.appSource = row.appSource
  if (can(role, 'courseRequest.create')) {
    course.assigned = assigned
    course.requestable = isRequestable(row, assigned)
  }
  return course
}

export function toCourseDispatch(row: Awaited<ReturnType<CoursesRepository['dispatches']>>[number]): CourseDispatch {
  return {
    id: row.id,
    destinationId: row.destinationId,
    destinationName: row.destinationName || row.destinationId,
    enabled: row.enabled,
    registrationCount: row.registrationCount,
    registrationCap: row.registrationCap,
    created: iso(row.providerCreated),
  }
}
