import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { firstRow } from '../../db/first-row'
import { course, courseRequest, dispatch, syncRun } from '../../db/schema'

export type CourseRow = typeof course.$inferSelect

/** Portal-owned columns the edit form writes (docs/product-decisions.md D3: a sync never touches them). */
export type CourseDetailsUpdate = Partial<
  Pick<
    typeof course.$inferInsert,
    'titleOverride' | 'imageUrl' | 'summary' | 'description' | 'duration' | 'level' | 'isRequestable' | 'demoUrl'
  >
>

const int = (expr: ReturnType<typeof sql>) => sql<number>`(${expr})::bigint`.mapWith(Number)
const present = isNull(dispatch.removedAt)

/** Reads and portal-owned writes of the course mirror. Knows nothing about roles. */
export function createCoursesRepository(db: DbOrTx) {
  return {
    /** Courses still present upstream; hidden ones only when asked for. */
    async list(includeHidden: boolean): Promise<CourseRow[]> {
      const where = includeHidden ? isNull(course.removedAt) : and(isNull(course.removedAt), eq(course.isVisible, true))
      return db
        .select()
        .from(course)
        .where(where)
        .orderBy(asc(sql`lower(coalesce(${course.titleOverride}, ${course.title}))`), asc(course.id))
    },

    async find(id: string): Promise<CourseRow | null> {
      return firstRow(
        db
          .select()
          .from(course)
          .where(and(eq(course.id, id), isNull(course.removedAt))),
      )
    },

    /** Ids among `courseIds` (all when omitted) that the company has a present dispatch of. */
    async dispatchedCourseIds(companyId: string, courseIds?: string[]): Promise<Set<string>> {
      const conditions = [present, eq(dispatch.destinationId, companyId)]
      if (courseIds) conditions.push(inArray(dispatch.courseId, courseIds))
      const rows = await db
        .selectDistinct({ courseId: dispatch.courseId })
        .from(dispatch)
        .where(and(...conditions))
      return new Set(rows.map((r) => r.courseId))
    },

    /** The course's present dispatches, optionally of one company, by client name. */
    async dispatches(courseId: string, companyId?: string) {
      const conditions = [present, eq(dispatch.courseId, courseId)]
      if (companyId) conditions.push(eq(dispatch.destinationId, companyId))
      return db
        .select({
          id: dispatch.id,
          destinationId: dispatch.destinationId,
          destinationName: dispatch.destinationName,
          enabled: dispatch.enabled,
          registrationCount: dispatch.registrationCount,
          registrationCap: dispatch.registrationCap,
          providerCreated: dispatch.providerCreated,
        })
        .from(dispatch)
        .where(and(...conditions))
        .orderBy(asc(sql`lower(${dispatch.destinationName})`), asc(dispatch.id))
    },

    /** Side-panel figures over the course's present dispatches. */
    async stats(courseId: string) {
      const [row] = await db
        .select({
          totalRegistrations: int(sql`coalesce(sum(${dispatch.registrationCount}), 0)`),
          activeDispatches: int(sql`count(*) filter (where ${dispatch.enabled})`),
          totalDispatches: int(sql`count(*)`),
        })
        .from(dispatch)
        .where(and(present, eq(dispatch.courseId, courseId)))
      return row!
    },

    /** Statuses and demo URLs of one user's requests for a course (the docs/product-rules.md §2 demo rule). */
    async requestsOf(userId: string, courseId: string) {
      return db
        .select({ status: courseRequest.status, demoUrl: courseRequest.demoUrl })
        .from(courseRequest)
        .where(and(eq(courseRequest.userId, userId), eq(courseRequest.courseId, courseId)))
        .orderBy(desc(courseRequest.updatedAt))
    },

    /** End of the newest successful course sync, for the catalogue's "last synced" line. */
    async lastCourseSync(): Promise<Date | null> {
      const [row] = await db
        .select({ at: syncRun.finishedAt })
        .from(syncRun)
        .where(and(eq(syncRun.kind, 'courses'), eq(syncRun.status, 'succeeded')))
        .orderBy(desc(syncRun.startedAt), desc(syncRun.id))
        .limit(1)
      return row?.at ?? null
    },

    async updateDetails(id: string, values: CourseDetailsUpdate, tx: DbOrTx = db): Promise<void> {
      await tx
        .update(course)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(course.id, id))
    },

    async setVisibility(id: string, isVisible: boolean, tx: DbOrTx = db): Promise<void> {
      await tx.update(course).set({ isVisible, updatedAt: new Date() }).where(eq(course.id, id))
    },
  }
}
export type CoursesRepository = ReturnType<typeof createCoursesRepository>
