import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { and, eq, isNull, sql } from 'drizzle-orm'
import { IDEMPOTENCY_KEY_HEADER } from '@portal/shared'
import { activityLog, courseRequest, dispatch } from '../../db/schema'
import { providerApp, upstreamPair, type ProviderApp } from '../../modules/dispatches/dispatch-actions.test-support'
import { appParts } from '../../app'

/**
 * Reliability suite: SCORM Cloud carried out a create but its answer never came back (the
 * simulator's dropAnswerNext fault cuts the connection after applying the POST). The user's
 * retry used to get 409 "X already has a dispatch of Y", naming the dispatch their own first
 * attempt made, and no DISPATCH_CREATED row was ever written. With the form's Idempotency-Key
 * the retry answers 201 with that dispatch; with the request's recorded intent, a fulfilment's
 * retry answers 200. Either way: one dispatch upstream, one in the mirror, one creation logged.
 */
let f: ProviderApp
beforeAll(async () => {
  f = await providerApp()
})
afterAll(async () => f?.close())
beforeEach(() => f.sim.clearFaults())

type Headers = Record<string, string>
const post = (payload: object, headers: Headers) =>
  f.t.app.inject({ method: 'POST', url: '/api/dispatches', headers, payload })
const keyed = (key: string, headers: Headers = f.admin) => ({ ...headers, [IDEMPOTENCY_KEY_HEADER]: key })
/** The next create SCORM Cloud receives is applied and its answer lost. */
const loseNextAnswer = () => f.sim.setFaults({ dropAnswerNext: 1, onlyPaths: ['/dispatch/dispatches'] })

/** A course and company with no dispatch, upstream or in the mirror. */
function freePair(): { companyId: string; courseId: string } {
  for (const companyId of f.sim.data.listDestinationIds()) {
    const courseId = f.sim.data.listCourseIds().find((c) => upstreamPair(f.sim, companyId, c).length === 0)
    if (courseId) return { companyId, courseId }
  }
  throw new Error('no free pair left')
}
const mirrorPair = async (companyId: string, courseId: string) =>
  (
    await f.t.database.db
      .select({ id: dispatch.id })
      .from(dispatch)
      .where(and(eq(dispatch.destinationId, companyId), eq(dispatch.courseId, courseId), isNull(dispatch.removedAt)))
  ).map((r) => r.id)
const createdRows = async (dispatchId: string) =>
  f.t.database.db
    .select()
    .from(activityLog)
    .where(and(eq(activityLog.action, 'DISPATCH_CREATED'), sql`${activityLog.details}->>'dispatchId' = ${dispatchId}`))

describe('a create whose answer SCORM Cloud lost', () => {
  it('answers the retry with the dispatch (201), one dispatch upstream and in the mirror, one DISPATCH_CREATED', async () => {
    const pair = freePair()
    const body = { ...pair, registrationCap: 12, notes: 'Spring cohort', tags: ['spring'] }
    const key = crypto.randomUUID()
    loseNextAnswer()
    const first = await post(body, keyed(key))
    expect(first.statusCode, first.body).toBe(502)
    expect(first.json().message).toBe('SCORM Cloud could not be reached.')
    expect(f.sim.stats().faults.answersDropped).toBe(1)
    // SCORM Cloud did make it; the portal has not heard of it.
    const [upstreamId] = upstreamPair(f.sim, pair.companyId, pair.courseId)
    expect(upstreamId, 'SCORM Cloud holds the dispatch').toEqual(expect.any(String))
    expect(await mirrorPair(pair.companyId, pair.courseId)).toEqual([])

    const retry = await post(body, keyed(key))
    expect(retry.statusCode, retry.body).toBe(201)
    expect(retry.json()).toMatchObject({
      id: upstreamId,
      destinationId: pair.companyId,
      courseId: pair.courseId,
      registrationCap: 12,
      notes: 'Spring cohort',
    })
    expect(upstreamPair(f.sim, pair.companyId, pair.courseId)).toEqual([upstreamId])
    expect(await mirrorPair(pair.companyId, pair.courseId)).toEqual([upstreamId])
    const rows = await createdRows(upstreamId!)
    expect(rows).toHaveLength(1)
    expect(rows[0]!.details).toMatchObject({ dispatchId: upstreamId, registrationCap: 12, ...pair })

    // The portal's own answer lost too (a third try): the same answer, still one row.
    const again = await post(body, keyed(key))
    expect(again.statusCode).toBe(201)
    expect(again.json().id).toBe(upstreamId)
    expect(await createdRows(upstreamId!)).toHaveLength(1)
  })

  it('answers the retry with the dispatch when a sync mirrored it in between', async () => {
    const pair = freePair()
    const key = crypto.randomUUID()
    loseNextAnswer()
    expect((await post(pair, keyed(key))).statusCode).toBe(502)
    expect((await appParts(f.t.app).sync!.run({ trigger: 'schedule' })).ok).toBe(true)
    const [upstreamId] = upstreamPair(f.sim, pair.companyId, pair.courseId)
    expect(await mirrorPair(pair.companyId, pair.courseId)).toEqual([upstreamId])
    expect(await createdRows(upstreamId!)).toHaveLength(0)

    const retry = await post(pair, keyed(key))
    expect(retry.statusCode, retry.body).toBe(201)
    expect(retry.json().id).toBe(upstreamId)
    expect(await createdRows(upstreamId!)).toHaveLength(1)
  })

  it('makes one dispatch and one row when the same submission arrives twice at once', async () => {
    const pair = freePair()
    const key = crypto.randomUUID()
    const [a, b] = await Promise.all([post(pair, keyed(key)), post(pair, keyed(key))])
    expect([a.statusCode, b.statusCode], `${a.body} ${b.body}`).toEqual([201, 201])
    expect(a.json().id).toBe(b.json().id)
    expect(upstreamPair(f.sim, pair.companyId, pair.courseId)).toEqual([a.json().id])
    expect(await createdRows(a.json().id)).toHaveLength(1)
  })

  it('still answers 409 naming the dispatch for a genuine conflict: another user, another submission, no key', async () => {
    const pair = freePair()
    const key = crypto.randomUUID()
    const made = await post(pair, keyed(key))
    expect(made.statusCode).toBe(201)
    const id = made.json().id
    const otherAdmin = (await f.t.loginAs('admin')).headers
    const count = f.sim.data.counts().dispatches
    for (const [who, headers] of [
      ['another admin, same key', keyed(key, otherAdmin)],
      ['the same admin, a new submission', keyed(crypto.randomUUID())],
      ['the same admin, other values under the same key', keyed(key)],
      ['no key', f.admin],
    ] as const) {
      const payload = who.includes('other values') ? { ...pair, registrationCap: 5 } : pair
      const res = await post(payload, headers)
      expect(res.statusCode, who).toBe(409)
      expect(res.json(), who).toMatchObject({ code: 'CONFLICT', dispatchId: id })
      expect(res.json().message, who).toMatch(/ already has a dispatch of /)
    }
    expect(f.sim.data.counts().dispatches).toBe(count)
    expect(await createdRows(id)).toHaveLength(1)
  })

  it('refuses a malformed key with 400 and creates nothing; a client may not create at all (403)', async () => {
    const pair = freePair()
    const count = f.sim.data.counts().dispatches
    const bad = await post(pair, keyed('no spaces allowed'))
    expect(bad.statusCode).toBe(400)
    expect(bad.json().code).toBe('VALIDATION_FAILED')
    const denied = await post(pair, keyed(crypto.randomUUID(), f.client))
    expect(denied.statusCode).toBe(403)
    expect(f.sim.data.counts().dispatches).toBe(count)
    expect(await mirrorPair(pair.companyId, pair.courseId)).toEqual([])
  })
})

describe('a fulfilment whose create SCORM Cloud applied but whose answer it lost', () => {
  it('answers the retry 200 PROCESSED, one dispatch upstream and in the mirror, one DISPATCH_CREATED', async () => {
    const { companyId, courseId } = freePair()
    const [row] = await f.t.database.db
      .insert(courseRequest)
      .values({
        courseId,
        courseTitle: f.sim.data.getCourse(courseId)!.title!,
        companyId,
        requestorName: 'Client',
        requestorEmail: 'client@example.test',
        licenses: 7,
      })
      .returning({ id: courseRequest.id })
    const url = `/api/course-requests/${row!.id}/fulfil`
    const fulfil = () => f.t.app.inject({ method: 'POST', url, headers: f.admin, payload: { mode: 'create' } })

    loseNextAnswer()
    const first = await fulfil()
    expect(first.statusCode, first.body).toBe(502)
    expect(f.sim.stats().faults.answersDropped).toBeGreaterThanOrEqual(1)
    const [upstreamId] = upstreamPair(f.sim, companyId, courseId)
    expect(upstreamId, 'SCORM Cloud holds the dispatch').toEqual(expect.any(String))

    const retry = await fulfil()
    expect(retry.statusCode, retry.body).toBe(200)
    expect(retry.json()).toMatchObject({ status: 'PROCESSED', dispatchId: upstreamId })
    expect(upstreamPair(f.sim, companyId, courseId)).toEqual([upstreamId])
    expect(await mirrorPair(companyId, courseId)).toEqual([upstreamId])
    expect(f.sim.data.getDispatch(upstreamId!)!.registrationCap).toBe(7)
    const rows = await createdRows(upstreamId!)
    expect(rows).toHaveLength(1)
    expect(rows[0]!.details).toMatchObject({ requestId: row!.id, registrationCap: 7 })

    // Its answer lost on the way to the browser: the same request again answers as it is.
    const again = await fulfil()
    expect(again.statusCode).toBe(200)
    expect(again.json()).toMatchObject({ status: 'PROCESSED', dispatchId: upstreamId })
    expect(await createdRows(upstreamId!)).toHaveLength(1)
  })
})
