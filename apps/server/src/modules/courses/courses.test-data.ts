import { eq } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { activityLog, course, syncRun } from '../../db/schema'

export type CourseInput = Partial<typeof course.$inferInsert> & { id: string }

/** Course mirror rows for tests, written directly (the sync module owns the real writer). */
export async function insertCourses(db: Db, rows: CourseInput[]) {
  for (const row of rows) {
    await db.insert(course).values({ title: `Course ${row.id}`, ...row })
  }
}

export async function insertCourseSyncRun(db: Db, finishedAt: Date, status = 'succeeded') {
  await db.insert(syncRun).values({
    kind: 'courses',
    trigger: 'manual',
    status,
    startedAt: new Date(finishedAt.getTime() - 1000),
    finishedAt,
  })
}

export async function activityOf(db: Db, action: string) {
  return db.select().from(activityLog).where(eq(activityLog.action, action))
}

export async function courseRow(db: Db, id: string) {
  const [row] = await db.select().from(course).where(eq(course.id, id))
  return row!
}
