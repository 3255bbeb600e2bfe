import { asc, eq, isNull, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { appUser, company, course } from '../../db/schema'

/** What a course's curation sets (demo-catalogue.ts). */
export interface CuratedCourse {
  isVisible: boolean
  summary: string
  description: string
  duration: string
  level: string
  demoUrl: string | null
}

/** What start-up reads and writes before the first sign-in: the first admin, the demo's company and catalogue. */
export function createDemoRepository(db: DbOrTx) {
  return {
    async adminExists(): Promise<boolean> {
      const [existing] = await db.select({ id: appUser.id }).from(appUser).where(eq(appUser.role, 'admin')).limit(1)
      return existing !== undefined
    },
    /** The first live company of the mirror, those with dispatches first; undefined when it holds none. */
    async firstCompanyId(): Promise<string | undefined> {
      const [first] = await db
        .select({ id: company.id })
        .from(company)
        .where(isNull(company.removedAt))
        .orderBy(
          asc(sql`(select count(*) from dispatch d where d.destination_id = ${company.id}) = 0`),
          asc(company.name),
        )
        .limit(1)
      return first?.id
    },
    async ensureCompany(values: { id: string; name: string }): Promise<void> {
      await db.insert(company).values(values).onConflictDoNothing()
    },
    /** The mirror's live courses, by id. */
    async liveCourses(): Promise<{ id: string; title: string }[]> {
      return db
        .select({ id: course.id, title: course.title })
        .from(course)
        .where(isNull(course.removedAt))
        .orderBy(asc(course.id))
    },
    async curateCourse(id: string, values: CuratedCourse): Promise<void> {
      await db.update(course).set(values).where(eq(course.id, id))
    },
  }
}
export type DemoRepository = ReturnType<typeof createDemoRepository>
