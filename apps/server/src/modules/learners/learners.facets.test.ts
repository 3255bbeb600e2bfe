import { beforeAll, describe, expect, it } from 'vitest'
import { and, countDistinct, eq, inArray, isNull } from 'drizzle-orm'
import { dispatch, registration } from '../../db/schema'
import { insertDispatches, insertRegistrations } from '../dispatches/dispatches.test-data'
import { person, useLearnersApp } from './learners.test-support'

/** /api/learners, the totals of a course or status filter kept per facet. */
const { app, list } = useLearnersApp()

describe('GET /api/learners: a course or status filter’s total (kept per facet, migration 0017)', () => {
  const company = 'ln-f'
  /** The learners of the company with a live registration matching the filter, counted from the registrations. */
  const real = async (courseId?: string, status?: string) => {
    const [row] = await app.t.database.db
      .select({ n: countDistinct(registration.learnerHash) })
      .from(registration)
      .innerJoin(dispatch, eq(dispatch.id, registration.dispatchId))
      .where(
        and(
          eq(dispatch.destinationId, company),
          isNull(dispatch.removedAt),
          isNull(registration.removedAt),
          courseId ? eq(dispatch.courseId, courseId) : undefined,
          status ? eq(registration.completionStatus, status) : undefined,
        ),
      )
    return Number(row!.n)
  }
  const filters: [string | undefined, string | undefined][] = [
    [undefined, 'completed'],
    [undefined, 'incomplete'],
    [undefined, 'not attempted'],
    ['ln-fc1', undefined],
    ['ln-fc2', undefined],
    ['ln-fc1', 'completed'],
    ['ln-fc2', 'incomplete'],
  ]
  /** Every filter's total and listed rows equal the real count. */
  const expectTotalsTrue = async () => {
    const seen: [string, number, number, number][] = []
    const wanted: [string, number, number, number][] = []
    for (const [courseId, status] of filters) {
      const query = new URLSearchParams({ companyId: company, pageSize: '100' })
      if (courseId) query.set('courseId', courseId)
      if (status) query.set('status', status)
      const body = await list(query.toString())
      const n = await real(courseId, status)
      seen.push([query.toString(), body.pagination.totalItems, body.learners.length, body.pagination.totalPages])
      wanted.push([query.toString(), n, n, Math.ceil(n / 100)])
    }
    expect(seen).toEqual(wanted)
  }

  beforeAll(async () => {
    await insertDispatches(app.t.database.db, [
      { id: 'ln-f-d1', destinationId: company, courseId: 'ln-fc1', courseTitle: 'Fire' },
      { id: 'ln-f-d2', destinationId: company, courseId: 'ln-fc2', courseTitle: 'First aid' },
      { id: 'ln-f-d3', destinationId: 'ln-f-other', courseId: 'ln-fc1', courseTitle: 'Fire' },
    ])
    const statuses = ['completed', 'incomplete', 'not attempted'] as const
    // 12 learners, some in both courses, one (f0) twice in a course with two statuses.
    await insertRegistrations(app.t.database.db, [
      ...Array.from({ length: 12 }, (_, i) => ({
        id: `ln-f-r1-${i}`,
        dispatchId: 'ln-f-d1',
        ...person(`F${i}`, 'Facet', `f${i}@example.test`),
        completionStatus: statuses[i % 3],
      })),
      ...Array.from({ length: 6 }, (_, i) => ({
        id: `ln-f-r2-${i}`,
        dispatchId: 'ln-f-d2',
        ...person(`F${i}`, 'Facet', `F${i}@Example.test`),
        completionStatus: statuses[(i + 1) % 3],
      })),
      { id: 'ln-f-r1-again', dispatchId: 'ln-f-d1', ...person('F0', 'Facet', 'f0@example.test') },
    ])
  })

  it('equals the real count after inserts', async () => {
    await expectTotalsTrue()
    expect((await list(`companyId=${company}&status=completed`)).pagination.totalItems).toBe(
      await real(undefined, 'completed'),
    )
  })

  it('stays true through updates, removals, deletes and dispatch moves', async () => {
    const db = app.t.database.db
    // A status change in one row, then in many at once.
    await db.update(registration).set({ completionStatus: 'completed' }).where(eq(registration.id, 'ln-f-r1-1'))
    await expectTotalsTrue()
    await db
      .update(registration)
      .set({ completionStatus: 'incomplete' })
      .where(inArray(registration.id, ['ln-f-r1-0', 'ln-f-r1-3', 'ln-f-r2-0', 'ln-f-r2-4']))
    await expectTotalsTrue()
    // A learner's e-mail changes: another learner.
    await db.update(registration).set({ learnerEmail: 'f5-new@example.test' }).where(eq(registration.id, 'ln-f-r1-5'))
    await expectTotalsTrue()
    // Removed, restored, deleted.
    await db.update(registration).set({ removedAt: new Date() }).where(eq(registration.id, 'ln-f-r1-6'))
    await expectTotalsTrue()
    await db.update(registration).set({ removedAt: null }).where(eq(registration.id, 'ln-f-r1-6'))
    await expectTotalsTrue()
    await db.delete(registration).where(inArray(registration.id, ['ln-f-r1-7', 'ln-f-r2-2', 'ln-f-r1-again']))
    await expectTotalsTrue()
    // A registration moved to another company's dispatch, and a whole dispatch moved, removed, restored.
    await db.update(registration).set({ dispatchId: 'ln-f-d3' }).where(eq(registration.id, 'ln-f-r1-8'))
    await expectTotalsTrue()
    await db.update(dispatch).set({ destinationId: 'ln-f-other' }).where(eq(dispatch.id, 'ln-f-d2'))
    await expectTotalsTrue()
    await db.update(dispatch).set({ destinationId: company, removedAt: new Date() }).where(eq(dispatch.id, 'ln-f-d2'))
    await expectTotalsTrue()
    await db.update(dispatch).set({ removedAt: null }).where(eq(dispatch.id, 'ln-f-d2'))
    await expectTotalsTrue()
    // A dispatch's course changes.
    await db.update(dispatch).set({ courseId: 'ln-fc1' }).where(eq(dispatch.id, 'ln-f-d2'))
    await expectTotalsTrue()
    expect(await real('ln-fc2')).toBe(0)
  })

  it('a search still counts (what the kept facet cannot know)', async () => {
    const body = await list(`companyId=${company}&status=completed&search=f1`)
    const matched = body.learners.map((l) => l.email.toLowerCase())
    expect(matched.length).toBeGreaterThan(0)
    expect(body.pagination.totalItems).toBe(matched.length)
    expect(matched.every((e) => e.startsWith('f1'))).toBe(true)
  })
})
