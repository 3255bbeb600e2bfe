import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq, isNotNull } from 'drizzle-orm'
import type { Simulator } from '@portal/scorm-cloud-sim'
import { course, dispatch, registration, syncCursor } from '../../db/schema'
import { createKindHandlers } from './sync.kinds'
import { createSyncRepository } from './sync.repository'
import { mirrorRows, startTestSimulator, syncFixture, syncRuns, type SyncFixture } from './sync.test-support'

let sim: Simulator
let f: SyncFixture
beforeAll(async () => {
  sim = await startTestSimulator()
  f = await syncFixture(sim)
})
afterAll(async () => {
  await f.close()
  await sim.close()
})

const byKind = (outcome: { results: { kind: string }[] }) =>
  Object.fromEntries(outcome.results.map((r) => [r.kind, r])) as Record<string, Record<string, unknown>>
const iso = (d: Date | null) => (d ? d.toISOString() : null)

describe('a full sync', () => {
  it('mirrors every course, destination, dispatch and dispatch registration of the provider', async () => {
    const outcome = await f.sync.run({ trigger: 'startup' })
    expect(outcome.ok).toBe(true)
    const counts = sim.data.counts()
    const rows = await mirrorRows(f.database.db)
    expect(rows.courses).toHaveLength(counts.courses)
    expect(rows.companies).toHaveLength(counts.destinations)
    expect(rows.dispatches).toHaveLength(counts.dispatches)
    expect(rows.registrations).toHaveLength(counts.registrations)
    const r = byKind(outcome)
    expect(r.courses).toMatchObject({ status: 'succeeded', created: counts.courses, updated: 0, errors: 0 })
    expect(r.registrations).toMatchObject({ created: counts.registrations, skipped: 0, errors: 0 })
    // One sync_run row per kind, in the documented order, and a cursor for each.
    expect((await syncRuns(f.database.db)).map((x) => [x.kind, x.trigger, x.status])).toEqual([
      ['courses', 'startup', 'succeeded'],
      ['destinations', 'startup', 'succeeded'],
      ['dispatches', 'startup', 'succeeded'],
      ['registrations', 'startup', 'succeeded'],
    ])
    const cursors = await f.database.db.select().from(syncCursor)
    expect(cursors.map((c) => c.kind).sort()).toEqual([
      'courses',
      'destinations',
      'dispatches',
      'full-run',
      'registrations',
    ])
  })

  it('maps rows field by field as the reference mapping says', async () => {
    const rows = await mirrorRows(f.database.db)
    const courseId = sim.data.listCourseIds()[2]!
    const c = sim.data.getCourse(courseId)!
    expect(rows.courses.find((x) => x.id === courseId)).toMatchObject({
      title: c.title,
      version: c.version,
      providerCreated: new Date(c.created!),
      providerUpdated: new Date(c.updated!),
      registrationCount: c.registrationCount,
      tags: c.tags,
      learningStandard: c.courseLearningStandard,
      appSource: f.client.appId,
      isVisible: false,
      isRequestable: true,
      removedAt: null,
    })
    const destId = sim.data.listDestinationIds()[1]!
    expect(rows.companies.find((x) => x.id === destId)?.name).toBe(sim.data.getDestination(destId)!.name)

    let expiring = 0
    for (const id of sim.data.listDispatchIds()) {
      const d = sim.data.getDispatch(id)!
      const row = rows.dispatches.find((x) => x.id === id)!
      expect(row).toMatchObject({
        courseId: d.courseId,
        courseTitle: d.courseTitle,
        destinationId: d.destinationId,
        destinationName: d.destinationName,
        enabled: d.enabled,
        allowNewRegistrations: d.allowNewRegistrations,
        instanced: d.instanced,
        registrationCount: d.registrationCount,
        registrationCap: d.registrationCap ?? 0,
        tags: d.tags ?? [],
        notes: d.notes ?? '',
      })
      expect(iso(row.expirationDate)).toBe(d.expirationDate ? new Date(d.expirationDate).toISOString() : null)
      if (d.expirationDate) expiring += 1
    }
    expect(expiring).toBeGreaterThan(0)

    let scored = false
    let split = false
    for (let i = 0; i < sim.data.counts().registrations; i++) {
      const reg = sim.data.registrationAt(i)!
      const row = rows.registrations.find((x) => x.id === reg.id)!
      const completion = { COMPLETED: 'completed', INCOMPLETE: 'incomplete', UNKNOWN: 'not attempted' }
      const success = { PASSED: 'passed', FAILED: 'failed', UNKNOWN: 'unknown' }
      expect(row).toMatchObject({
        dispatchId: reg.dispatchId,
        courseId: reg.course!.id,
        instance: reg.instance,
        learnerId: reg.learner!.id,
        learnerEmail: reg.learner!.email ?? '',
        completionStatus: completion[reg.registrationCompletion!],
        successStatus: success[reg.registrationSuccess!],
        scoreScaled: reg.score?.scaled ?? null,
        totalSecondsTracked: reg.totalSecondsTracked,
      })
      expect(iso(row.lastAccessDate)).toBe(reg.lastAccessDate ?? null)
      expect(iso(row.providerUpdated)).toBe(reg.updated)
      if (reg.score) scored = true
      if (reg.learner!.firstName === '') {
        // "Last, First" in lastName is split (reference mapping).
        const [last, first] = reg.learner!.lastName!.split(', ')
        expect([row.learnerFirstName, row.learnerLastName]).toEqual([first, last])
        split = true
      } else {
        expect([row.learnerFirstName, row.learnerLastName]).toEqual([reg.learner!.firstName, reg.learner!.lastName])
      }
    }
    expect(scored).toBe(true)
    expect(split).toBe(true)
  })

  it('changes nothing when run again: no created or updated rows, no timestamps moved', async () => {
    const before = await mirrorRows(f.database.db)
    const full = await f.sync.run({ trigger: 'manual', full: true })
    const incremental = await f.sync.run({ trigger: 'schedule' })
    for (const result of [...full.results, ...incremental.results]) {
      expect(result, result.kind).toMatchObject({ status: 'succeeded', created: 0, updated: 0, errors: 0 })
    }
    expect(byKind(full).registrations!.skipped).toBe(sim.data.counts().registrations)
    // Identical rows, including updated_at and synced_at: nothing was written.
    expect(await mirrorRows(f.database.db)).toEqual(before)
  })

  it('an incremental run reads and updates only what changed upstream', async () => {
    const dispatchId = sim.data.listDispatchIds()[3]!
    const regId = sim.data.registrationAt(5)!.id
    sim.touchDispatch(dispatchId, { notes: 'changed upstream', registrationCap: 42 })
    sim.touchRegistration(regId, { registrationCompletion: 'COMPLETED', registrationSuccess: 'PASSED', score: 91 })
    sim.resetStats()
    const outcome = byKind(await f.sync.run({ trigger: 'schedule' }))
    expect(outcome.dispatches).toMatchObject({ created: 0, updated: 1 })
    expect(outcome.registrations).toMatchObject({ created: 0, updated: 1 })
    expect(outcome.courses).toMatchObject({ created: 0, updated: 0 })
    expect(outcome.destinations).toMatchObject({ created: 0, updated: 0 })
    // The `since` filter did the narrowing: one page per kind, not the whole account.
    expect(sim.stats().byPath['GET /registrations']).toBe(1)
    const [d] = await f.database.db.select().from(dispatch).where(eq(dispatch.id, dispatchId))
    expect(d).toMatchObject({ notes: 'changed upstream', registrationCap: 42 })
    const [r] = await f.database.db.select().from(registration).where(eq(registration.id, regId))
    expect(r).toMatchObject({ completionStatus: 'completed', successStatus: 'passed', scoreScaled: 91 })
  })

  it('never overwrites portal-owned course fields, and refreshes provider-owned ones', async () => {
    const id = sim.data.listCourseIds()[0]!
    const portal = {
      isVisible: true,
      isRequestable: false,
      summary: 'Our summary',
      description: '<p>Ours</p>',
      imageUrl: 'https://img.example/x.png',
      duration: '2 hours',
      level: 'Beginner',
      demoUrl: 'https://demo.example/x',
    }
    await f.database.db.update(course).set(portal).where(eq(course.id, id))
    sim.touchCourse(id, { title: 'Renamed upstream', tags: ['new-tag'] })
    const result = await f.sync.syncCourses('manual')
    expect(result).toMatchObject({ status: 'succeeded', updated: 1, created: 0 })
    const [row] = await f.database.db.select().from(course).where(eq(course.id, id))
    expect(row).toMatchObject({ ...portal, title: 'Renamed upstream', tags: ['new-tag'] })
  })

  it('marks items gone upstream removed on an incremental or a full run, keeps their rows, and clears the mark when they return', async () => {
    const [gone, goneLater] = sim.data.listDispatchIds().slice(0, 2) as [string, string]
    const regsOfGone = await f.database.db.select().from(registration).where(eq(registration.dispatchId, gone))
    sim.removeDispatch(gone)
    // Incremental: the check for deletions (sync-reconcile.ts) finds it.
    const incremental = byKind(await f.sync.run({ trigger: 'schedule' }))
    expect(incremental.dispatches!.message).toBe('1 marked removed upstream.')
    expect((await f.database.db.select().from(dispatch).where(isNotNull(dispatch.removedAt))).map((d) => d.id)).toEqual(
      [gone],
    )
    sim.removeDispatch(goneLater)

    // A course marked removed earlier that still exists upstream comes back.
    const back = sim.data.listCourseIds()[1]!
    await f.database.db.update(course).set({ removedAt: new Date() }).where(eq(course.id, back))

    const outcome = byKind(await f.sync.run({ trigger: 'manual', full: true }))
    expect(outcome.dispatches!.message).toContain('1 marked removed')
    const removed = await f.database.db.select().from(dispatch).where(isNotNull(dispatch.removedAt))
    expect(removed.map((d) => d.id).sort()).toEqual([gone, goneLater].sort())
    expect(await f.database.db.select().from(registration).where(eq(registration.dispatchId, gone))).toHaveLength(
      regsOfGone.length,
    )
    const [c] = await f.database.db.select().from(course).where(eq(course.id, back))
    expect(c!.removedAt).toBeNull()
    expect(outcome.courses).toMatchObject({ updated: 1 })
  })

  it('counts invalid items as errors and skips registrations it cannot place', async () => {
    const [known] = sim.data.listDispatchIds().slice(1, 2)
    const base = sim.data.registrationAt(0)!
    const page = await f.database.db.transaction((tx) =>
      createKindHandlers(createSyncRepository(f.database.db)).registrations.write(
        tx,
        [
          { ...base, id: '' }, // no id: an error
          { ...base, id: 'no-dispatch', dispatchId: undefined }, // not a dispatch registration
          { ...base, id: 'orphan', dispatchId: 'unknown-dispatch' }, // dispatch not mirrored
          { ...base, id: 'new-one', dispatchId: known },
        ],
        f.client,
      ),
    )
    expect(page).toMatchObject({ created: 1, updated: 0, skipped: 2, errors: 1, orphans: 1 })
    const ids = (await f.database.db.select({ id: registration.id }).from(registration)).map((r) => r.id)
    expect(ids).toContain('new-one')
    expect(ids).not.toContain('orphan')
  })
})
