import {
  COURSE_REQUEST_MESSAGES,
  can,
  isHttpUrl,
  isRequestable,
  toLicenses,
  ownCompanyOnly,
  unlocksDemo,
  type CourseRequest,
  type CourseRequestListQuery,
  type CourseRequestStatus,
  type CreateCourseRequest,
  type Role,
  type UpdateCourseRequestStatus,
} from '@portal/shared'
import type { Db } from '../../db/client'
import { AppError } from '../../lib/app-error'
import type { ActivityRepository, Actor } from '../activity-logs/activity.repository'
import type { CoursesRepository } from '../courses/courses.repository'
import { titleOf } from '../courses/courses.mapper'
import type { CourseRequestRow, CourseRequestsRepository } from './course-requests.repository'
import { auditEntry } from '../../lib/actor'

export interface Requestor {
  id: string
  role: Role
  companyId: string | null
  name: string | null
  username: string
  email: string
}

export interface RequestContext {
  actor: Actor | null
  ip: string
}

const M = COURSE_REQUEST_MESSAGES
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * docs/product-rules.md §3 Course request for the caller. A client sees a demo link only on a request that is
 * PROCESSED or COMPLETED (docs/product-rules.md §2 demo rule): the one stored on it, else the course's current one.
 */
export function toCourseRequest(row: CourseRequestRow, role: Role): CourseRequest {
  const demoUrl = row.demoUrl || row.courseDemoUrl || null
  return {
    id: row.id,
    courseId: row.courseId,
    courseTitle: row.courseTitle,
    licenses: row.licenses,
    notes: row.notes,
    status: row.status as CourseRequestStatus,
    adminNotes: row.adminNotes,
    demoUrl: ownCompanyOnly(role) && !unlocksDemo(row.status) ? null : demoUrl,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    userName: row.requestorName || null,
    userEmail: row.requestorEmail || null,
    companyId: row.companyId,
    companyName: row.companyName,
    dispatchId: row.dispatchId,
    // Staff who handle requests see whether "Add N licenses" applies.
    ...(can(role, 'courseRequest.readAll') ? { companyDispatch: row.companyDispatch } : {}),
  }
}

/** docs/product-rules.md §2 "My Course Requests" and "Course Requests", and the request form of the details screen. */
export function createCourseRequestsService(deps: {
  db: Db
  requests: CourseRequestsRepository
  activity: ActivityRepository
  /** The course a request names: whether it exists and is dispatched to the company. */
  courses: Pick<CoursesRepository, 'find' | 'dispatchedCourseIds'>
}) {
  const { db, requests, courses, activity } = deps

  async function requireRequest(id: string): Promise<CourseRequestRow> {
    // Ids are uuids; anything else cannot exist (and must not reach a uuid cast in SQL).
    const row = UUID.test(id) ? await requests.find(id) : null
    if (!row) throw new AppError('NOT_FOUND', M.requestNotFound)
    return row
  }

  return {
    /** Admin and sales: every request; a client: its own (docs/product-rules.md §6); anyone else: 403. */
    async list(viewer: Requestor, query: CourseRequestListQuery): Promise<CourseRequest[]> {
      const all = can(viewer.role, 'courseRequest.readAll')
      if (!all && !can(viewer.role, 'courseRequest.readOwn')) throw new AppError('FORBIDDEN')
      const rows = await requests.list({ courseId: query.courseId, ...(all ? {} : { userId: viewer.id }) })
      return rows.map((row) => toCourseRequest(row, viewer.role))
    },

    /** A client's request: the company is the user's own, the title the course's (never the body's). */
    async create(viewer: Requestor, body: CreateCourseRequest, ctx: RequestContext): Promise<CourseRequest> {
      const course = await courses.find(body.courseId)
      if (!course || !course.isVisible) throw new AppError('NOT_FOUND', M.courseNotFound)
      const licenses = toLicenses(body.licenses)
      if (licenses === null) throw new AppError('RULE_VIOLATION', M.invalidLicenses)
      const assigned = viewer.companyId
        ? (await courses.dispatchedCourseIds(viewer.companyId, [course.id])).has(course.id)
        : false
      if (!isRequestable(course, assigned)) {
        throw new AppError('CONFLICT', assigned ? M.alreadyAssigned : M.notRequestable)
      }
      const courseTitle = titleOf(course)
      const id = await db.transaction(async (tx) => {
        const newId = await requests.insert(
          {
            courseId: course.id,
            courseTitle,
            userId: viewer.id,
            companyId: viewer.companyId,
            requestorName: viewer.name ?? viewer.username,
            requestorEmail: viewer.email,
            licenses,
            notes: body.notes?.trim() ?? '',
          },
          tx,
        )
        await activity.record(
          auditEntry(ctx, 'COURSE_REQUEST_SUBMITTED', {
            requestId: newId,
            courseId: course.id,
            courseTitle,
            licenses,
            companyId: viewer.companyId,
          }),
          tx,
        )
        return newId
      })
      return toCourseRequest(await requireRequest(id), viewer.role)
    },

    /** Admin: any status from any other (docs/product-rules.md §4), with notes the client sees and the demo link. */
    async updateStatus(
      viewer: Requestor,
      id: string,
      body: UpdateCourseRequestStatus,
      ctx: RequestContext,
    ): Promise<CourseRequest> {
      const row = await requireRequest(id)
      const values: { status: CourseRequestStatus; adminNotes?: string; demoUrl?: string | null } = {
        status: body.status,
      }
      if (body.adminNotes !== undefined) values.adminNotes = body.adminNotes.trim()
      if (body.demoUrl !== undefined) {
        const url = body.demoUrl.trim()
        if (url !== '' && !isHttpUrl(url)) throw new AppError('RULE_VIOLATION', M.invalidDemoUrl)
        values.demoUrl = url || null
      }
      await db.transaction(async (tx) => {
        await requests.updateStatus(id, values, tx)
        await activity.record(
          auditEntry(ctx, 'COURSE_REQUEST_STATUS_UPDATED', {
            requestId: id,
            courseId: row.courseId,
            courseTitle: row.courseTitle,
            companyName: row.companyName,
            before: row.status,
            after: body.status,
          }),
          tx,
        )
      })
      return toCourseRequest(await requireRequest(id), viewer.role)
    },
  }
}
export type CourseRequestsService = ReturnType<typeof createCourseRequestsService>
