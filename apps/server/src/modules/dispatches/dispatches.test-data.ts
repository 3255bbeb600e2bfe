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

/** A name with what rows written as JSON must escape: quotes, a backslash, accents, CJK, an emoji, a newline, a tab. */
export const TRICKY_NAME = 'O\'Brien "the \\ one" Zoë 李 😀\n\t'

/**
 * Registrations whose values test rows written as JSON (the *.json-rows tests): `<prefix>-1`, a
 * learner with TRICKY_NAME, scored 87.5 with 2.5 seconds (rounding up); `<prefix>-2`, Nora Null,
 * with no e-mail, never accessed nor scored; then `<prefix>-10` to `-69`, of varied statuses,
 * scores, half seconds and access dates. `dispatchOf(i)` places each: 0 and 1 the first two,
 * then 10 and up.
 */
export function jsonTestRegistrations(prefix: string, dispatchOf: (i: number) => string): RegistrationInput[] {
  return [
    {
      id: `${prefix}-1`,
      dispatchId: dispatchOf(0),
      learnerId: 'tricky',
      learnerFirstName: TRICKY_NAME,
      learnerLastName: 'Léa',
      learnerEmail: 'o"brien@example.test',
      completionStatus: 'completed',
      successStatus: 'passed',
      scoreScaled: 87.5,
      totalSecondsTracked: 2.5,
      lastAccessDate: new Date('2026-03-04T05:06:07.089Z'),
    },
    {
      id: `${prefix}-2`,
      dispatchId: dispatchOf(1),
      learnerId: 'nora',
      learnerFirstName: 'Nora',
      learnerLastName: 'Null',
      learnerEmail: '',
      completionStatus: 'not attempted',
      successStatus: 'unknown',
      scoreScaled: null,
      totalSecondsTracked: 0,
      lastAccessDate: null,
    },
    ...Array.from({ length: 60 }, (_, i) => ({
      id: `${prefix}-${i + 10}`,
      dispatchId: dispatchOf(i + 10),
      learnerId: `p${i}`,
      learnerFirstName: `First${i}`,
      learnerLastName: i % 2 ? 'Odd' : 'Even',
      learnerEmail: `person${i}@example.test`,
      completionStatus: i % 3 ? 'incomplete' : 'completed',
      successStatus: 'unknown',
      scoreScaled: i % 4 ? (i * 100) / 7 : null,
      totalSecondsTracked: i * 10.49 + (i % 2 ? 0.5 : 0),
      lastAccessDate: i % 5 ? new Date(Date.UTC(2026, 1, 1 + (i % 27), i % 24, i, i, i * 7)) : null,
    })),
  ]
}
