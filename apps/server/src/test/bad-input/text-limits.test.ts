import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { DISPATCH_NOTES_MAX, REQUEST_NOTES_MAX } from '@portal/shared'
import { courseRequest } from '../../db/schema'
import { providerApp, upstreamPair, type ProviderApp } from '../../modules/dispatches/dispatch-actions.test-support'

/**
 * Text over its limit is refused with a 400 that names the field and the limit, and nothing is
 * written; text at the limit is stored whole (no field is ever cut to fit).
 */
let f: ProviderApp
beforeAll(async () => {
  f = await providerApp()
})
afterAll(async () => f.close())

const inject = (method: 'POST' | 'PUT', url: string, payload: object, headers = f.admin) =>
  f.t.app.inject({ method, url, headers, payload })

function freeCourse(): string {
  return f.sim.data.listCourseIds().find((c) => upstreamPair(f.sim, f.companyId, c).length === 0)!
}

describe('dispatch notes (5,000 characters)', () => {
  it('POST /api/dispatches refuses 12,000 characters of notes and creates nothing', async () => {
    const courseId = freeCourse()
    const res = await inject('POST', '/api/dispatches', { companyId: f.companyId, courseId, notes: 'n'.repeat(12_000) })
    expect(res.statusCode, res.body).toBe(400)
    expect(res.json()).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'notes must be at most 5,000 characters long.',
      details: [{ field: 'notes', message: 'must be at most 5,000 characters long' }],
    })
    expect(upstreamPair(f.sim, f.companyId, courseId)).toEqual([])
  })

  it('POST /api/dispatches keeps notes of exactly 5,000 characters whole', async () => {
    const notes = 'é'.repeat(DISPATCH_NOTES_MAX)
    const res = await inject('POST', '/api/dispatches', { companyId: f.companyId, courseId: freeCourse(), notes })
    expect(res.statusCode, res.body).toBe(201)
    expect((await f.mirrorRow(res.json().id))!.notes).toBe(notes)
  })

  it('PUT /api/dispatches/:id refuses 5,001 characters and leaves the notes as they were', async () => {
    const before = (await f.mirrorRow(f.ownDispatchId))!.notes
    const res = await inject('PUT', `/api/dispatches/${f.ownDispatchId}`, { notes: 'x'.repeat(DISPATCH_NOTES_MAX + 1) })
    expect(res.statusCode, res.body).toBe(400)
    expect(res.json().message).toBe('notes must be at most 5,000 characters long.')
    expect((await f.mirrorRow(f.ownDispatchId))!.notes).toBe(before)
  })
})

describe('course request notes (2,000 characters)', () => {
  it('POST /api/course-requests refuses 2,001 characters and stores no request', async () => {
    const before = (await f.t.database.db.select().from(courseRequest)).length
    const res = await inject(
      'POST',
      '/api/course-requests',
      { courseId: f.freeCourseId, licenses: 3, notes: 'x'.repeat(REQUEST_NOTES_MAX + 1) },
      f.client,
    )
    expect(res.statusCode, res.body).toBe(400)
    expect(res.json().message).toBe('notes must be at most 2,000 characters long.')
    expect((await f.t.database.db.select().from(courseRequest)).length).toBe(before)
  })

  it('PUT /api/course-requests/:id/status refuses admin notes past the limit and changes nothing', async () => {
    const [row] = await f.t.database.db
      .insert(courseRequest)
      .values({
        courseId: f.freeCourseId,
        courseTitle: 'Free course',
        companyId: f.companyId,
        requestorName: 'Client',
        requestorEmail: 'client@example.test',
        licenses: 2,
      })
      .returning({ id: courseRequest.id })
    const res = await inject('PUT', `/api/course-requests/${row!.id}/status`, {
      status: 'COMPLETED',
      adminNotes: 'a'.repeat(REQUEST_NOTES_MAX + 1),
    })
    expect(res.statusCode, res.body).toBe(400)
    expect(res.json().message).toBe('adminNotes must be at most 2,000 characters long.')
    const [stored] = await f.t.database.db.select().from(courseRequest).where(eq(courseRequest.id, row!.id))
    expect(stored).toMatchObject({ status: 'PENDING', adminNotes: '' })
  })
})
