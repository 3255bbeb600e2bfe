import { can, canSeeDemo, ownCompanyOnly, type CourseDetails, type CourseListResponse, type Role } from '@portal/shared'
import { AppError } from '../../lib/app-error'
import type { ActivityRepository, Actor } from '../activity-logs/activity.repository'
import { toCourse, toCourseDispatch } from './courses.mapper'
import type { CourseRow, CoursesRepository } from './courses.repository'
import { auditEntry } from '../../lib/actor'

export const COURSE_NOT_FOUND = 'Course not found'

export interface CourseViewer {
  id: string
  role: Role
  companyId: string | null
}

export interface RequestContext {
  actor: Actor | null
  ip: string
}

/** docs/product-rules.md §4 / §6: hidden courses never reach non-admins. */
const seesHidden = (role: Role) => can(role, 'course.readHidden')

/** The catalogue and the details screen (docs/product-rules.md §2), scoped to the caller's role and company. */
export function createCoursesService(deps: { courses: CoursesRepository; activity: ActivityRepository }) {
  const { courses, activity } = deps

  /** A present course the caller may see; hidden, removed and unknown ones are all 404. */
  async function requireVisible(role: Role, id: string): Promise<CourseRow> {
    const row = await courses.find(id)
    if (!row || (!row.isVisible && !seesHidden(role))) throw new AppError('NOT_FOUND', COURSE_NOT_FOUND)
    return row
  }

  async function clientDetails(viewer: CourseViewer, row: CourseRow): Promise<Partial<CourseDetails>> {
    const own = viewer.companyId ? await courses.dispatches(row.id, viewer.companyId) : []
    const requests = await courses.requestsOf(viewer.id, row.id)
    const details: Partial<CourseDetails> = {
      access:
        own.length === 0
          ? null
          : {
              registrations: own.reduce((sum, d) => sum + d.registrationCount, 0),
              status: own.some((d) => d.enabled) ? 'Active' : 'Inactive',
            },
    }
    if (
      canSeeDemo(
        viewer.role,
        requests.map((r) => r.status),
      )
    ) {
      // The course's current link; the one stored on the request when the course has none.
      details.demoUrl = row.demoUrl || requests.find((r) => r.demoUrl)?.demoUrl || null
    }
    return details
  }

  const service = {
    requireVisible,

    async list(viewer: CourseViewer): Promise<CourseListResponse> {
      const [rows, lastSync] = await Promise.all([courses.list(seesHidden(viewer.role)), courses.lastCourseSync()])
      const assigned =
        ownCompanyOnly(viewer.role) && viewer.companyId
          ? await courses.dispatchedCourseIds(viewer.companyId)
          : new Set<string>()
      return {
        courses: rows.map((row) => toCourse(row, viewer.role, assigned.has(row.id))),
        lastSyncedAt: lastSync ? lastSync.toISOString() : null,
      }
    },

    /** The details as the caller may see them (docs/product-rules.md §2), without recording a view. */
    async details(viewer: CourseViewer, id: string): Promise<CourseDetails> {
      const row = await requireVisible(viewer.role, id)
      if (ownCompanyOnly(viewer.role)) {
        const extra = await clientDetails(viewer, row)
        const course = toCourse(row, viewer.role, extra.access != null)
        return { ...course, ...extra, canRequest: course.requestable ?? false }
      }
      const details: CourseDetails = toCourse(row, viewer.role)
      if (can(viewer.role, 'course.readStats')) {
        const [stats, dispatches] = await Promise.all([courses.stats(id), courses.dispatches(id)])
        details.stats = stats
        details.dispatches = dispatches.map(toCourseDispatch)
      }
      if (canSeeDemo(viewer.role, [])) details.demoUrl = row.demoUrl || null
      return details
    },

    /** GET /api/courses/{id}/details: the details, and COURSE_VIEWED (docs/product-decisions.md D14) for the log. */
    async view(viewer: CourseViewer, id: string, ctx: RequestContext): Promise<CourseDetails> {
      const details = await service.details(viewer, id)
      await activity.record(auditEntry(ctx, 'COURSE_VIEWED', { courseId: id, courseTitle: details.title }))
      return details
    },
  }
  return service
}
export type CoursesService = ReturnType<typeof createCoursesService>
