import type { Db } from '../../db/client'
import { company, course, dispatch, registration } from '../../db/schema'

/**
 * Mirror rows for tests, written directly (the sync module owns the real writers). Companies
 * and courses a dispatch points to are created on the fly so each test states only what it needs.
 */
export type DispatchInput = Partial<typeof dispatch.$inferInsert> & { id: string; destinationId: string }
export type RegistrationInput = Partial<typeof registration.$inferInsert> & { id: string; dispatchId: string }

export async function insertCompany(db: Db, id: string, name: string, removedAt: Date | null = null) {
  await db.insert(company).values({ id, name, removedAt }).onConflictDoNothing()
}

export async function insertDispatches(db: Db, rows: DispatchInput[]) {
  // Courses and companies first, then the dispatches a few hundred a statement: some tests list
  // thousands of them.
  const written = new Set<string>()
  for (const row of rows) {
    const courseId = row.courseId ?? `course-of-${row.id}`
    const courseTitle = row.courseTitle ?? `Course ${row.id}`
    if (!written.has(`course:${courseId}`))
      await db.insert(course).values({ id: courseId, title: courseTitle, appSource: '7' }).onConflictDoNothing()
    if (!written.has(`company:${row.destinationId}`))
      await insertCompany(db, row.destinationId, row.destinationName ?? row.destinationId)
    written.add(`course:${courseId}`).add(`company:${row.destinationId}`)
  }
  for (let at = 0; at < rows.length; at += 500) {
    await db.insert(dispatch).values(
      rows.slice(at, at + 500).map((row) => ({
        destinationName: row.destinationId,
        providerCreated: new Date('2026-01-02T03:04:05.000Z'),
        providerUpdated: new Date('2026-02-03T04:05:06.000Z'),
        ...row,
        courseId: row.courseId ?? `course-of-${row.id}`,
        courseTitle: row.courseTitle ?? `Course ${row.id}`,
      })),
    )
  }
}

export async function insertRegistrations(db: Db, rows: RegistrationInput[]) {
  if (rows.length === 0) return
  await db
    .insert(registration)
    .values(
      rows.map((r) => ({ courseId: 'unused', completionStatus: 'not attempted', successStatus: 'unknown', ...r })),
    )
}
