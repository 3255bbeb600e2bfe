import { and, desc, eq, sql, type SQL } from 'drizzle-orm'
import type { CourseRequestStatus } from '@portal/shared'
import type { DbOrTx } from '../../db/client'
import { firstRow } from '../../db/first-row'
import { company, course, courseRequest, dispatch } from '../../db/schema'

export type NewCourseRequest = Pick<
  typeof courseRequest.$inferInsert,
  'courseId' | 'courseTitle' | 'userId' | 'companyId' | 'requestorName' | 'requestorEmail' | 'licenses' | 'notes'
>

const columns = {
  id: courseRequest.id,
  courseId: courseRequest.courseId,
  courseTitle: courseRequest.courseTitle,
  userId: courseRequest.userId,
  licenses: courseRequest.licenses,
  notes: courseRequest.notes,
  status: courseRequest.status,
  adminNotes: courseRequest.adminNotes,
  demoUrl: courseRequest.demoUrl,
  createdAt: courseRequest.createdAt,
  updatedAt: courseRequest.updatedAt,
  requestorName: courseRequest.requestorName,
  requestorEmail: courseRequest.requestorEmail,
  companyId: courseRequest.companyId,
  companyName: company.name,
  courseDemoUrl: course.demoUrl,
  // ---- The fulfilling dispatch, and the company's present dispatch of the course ----
  dispatchId: courseRequest.dispatchId,
  companyDispatch: sql<{ id: string; registrationCap: number; registrationCount: number } | null>`(
    select json_build_object('id', d.id, 'registrationCap', d.registration_cap, 'registrationCount', d.registration_count)
    from ${dispatch} d
    where d.destination_id = ${courseRequest.companyId} and d.course_id = ${courseRequest.courseId} and d.removed_at is null
    order by d.provider_created desc nulls last, d.id
    limit 1
  )`,
}

const selectFrom = (db: DbOrTx, where: SQL | undefined) =>
  db
    .select(columns)
    .from(courseRequest)
    .leftJoin(company, eq(company.id, courseRequest.companyId))
    .leftJoin(course, eq(course.id, courseRequest.courseId))
    .where(where)

export type CourseRequestRow = Awaited<ReturnType<typeof selectFrom>>[number]

/** course_request rows with their company's name and the course's current demo URL. */
export function createCourseRequestsRepository(db: DbOrTx) {
  const select = (where: SQL | undefined) => selectFrom(db, where)

  return {
    /** Newest first; `userId` narrows to one requestor's own requests. */
    async list(filter: { userId?: string; courseId?: string }): Promise<CourseRequestRow[]> {
      const conditions: SQL[] = []
      if (filter.userId) conditions.push(eq(courseRequest.userId, filter.userId))
      if (filter.courseId) conditions.push(eq(courseRequest.courseId, filter.courseId))
      return select(conditions.length ? and(...conditions) : undefined).orderBy(
        desc(courseRequest.createdAt),
        desc(courseRequest.id),
      )
    },

    async find(id: string): Promise<CourseRequestRow | null> {
      return firstRow(select(eq(courseRequest.id, id)))
    },

    async insert(values: NewCourseRequest, tx: DbOrTx = db): Promise<string> {
      const [row] = await tx.insert(courseRequest).values(values).returning({ id: courseRequest.id })
      return row!.id
    },

    async updateStatus(
      id: string,
      values: { status: CourseRequestStatus; adminNotes?: string; demoUrl?: string | null },
      tx: DbOrTx = db,
    ): Promise<void> {
      await tx
        .update(courseRequest)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(courseRequest.id, id))
    },
  }
}
export type CourseRequestsRepository = ReturnType<typeof createCourseRequestsRepository>
