import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq, sql } from 'drizzle-orm'
import { BULK_MAX_DISPATCHES, RENEWAL_MESSAGES as M } from '@portal/shared'
import { dispatch } from '../../db/schema'
import { runDueJobs } from '../../test/helpers'
import { providerApp, type ProviderApp } from './dispatch-actions.test-support'
import { BULK_LEASE_MS } from './bulk-runs.service'
import { renewalParts } from './renewals.parts'
import { utcDay } from './renewals.service'

let f: ProviderApp
let ids: string[]
beforeAll(async () => {
  f = await providerApp()
  ids = f.sim.data.listDispatchIds()
})
afterAll(async () => f?.close())

const start = (payload: Record<string, unknown>, headers = f.admin) =>
  f.t.app.inject({ method: 'POST', url: '/api/dispatches/bulk', headers, payload })
const progress = async (id: string, headers = f.admin) =>
  f.t.app.inject({ method: 'GET', url: `/api/dispatches/bulk/${id}`, headers })
const runCount = async () =>
  Number(
    ((await f.t.database.db.execute(sql`select count(*)::int as n from bulk_run`)) as { rows: { n: number }[] })
      .rows[0]!.n,
  )
const bulkUpdates = async (runId: string) =>
  (await f.activity('DISPATCH_UPDATED')).filter((r) => r.actorName?.startsWith(`Bulk run ${runId.slice(0, 8)} `))

describe('bulk actions on dispatches', () => {
  it('disables two selected dispatches through the job engine, with each outcome in the progress view', async () => {
    const chosen = [ids[0]!, ids[1]!]
    for (const id of chosen) f.sim.touchDispatch(id, { enabled: true })
    const res = await start({ action: 'disable', dispatchIds: chosen })
    expect(res.statusCode, res.body).toBe(202)
    const { id, total } = res.json()
    expect(total).toBe(2)
    expect((await progress(id)).json()).toMatchObject({ action: 'disable', status: 'running', total: 2, done: 0 })

    await runDueJobs(f.t.app)
    const after = (await progress(id)).json()
    expect(after).toMatchObject({ status: 'finished', total: 2, done: 2, failed: 0 })
    expect(after.finishedAt).toBeTruthy()
    expect(after.items.map((i: { dispatchId: string; status: string }) => [i.dispatchId, i.status])).toEqual(
      chosen.map((c) => [c, 'done']),
    )
    expect(after.items[0].courseTitle).toBeTruthy()
    for (const c of chosen) {
      expect(f.sim.data.getDispatch(c)!.enabled).toBe(false)
      expect((await f.mirrorRow(c))!.enabled).toBe(false)
    }
    expect(await bulkUpdates(id)).toHaveLength(2)
  })

  it('acts on all dispatches of a company matching a filter, and reports a failed item with its reason', async () => {
    const own = await f.t.database.db
      .select({ id: dispatch.id })
      .from(dispatch)
      .where(eq(dispatch.destinationId, f.companyId))
    const res = await start({ action: 'setCap', companyId: f.companyId, filter: {}, registrationCap: 0 })
    expect(res.statusCode, res.body).toBe(202)
    expect(res.json().total).toBe(own.length)

    await runDueJobs(f.t.app)
    expect((await progress(res.json().id)).json()).toMatchObject({ status: 'finished', done: own.length })

    const gone = [ids[2]!, ids[3]!]
    const removeRun = await start({ action: 'enable', dispatchIds: gone })
    expect(removeRun.statusCode, removeRun.body).toBe(202)
    f.sim.removeDispatch(gone[0]!)
    await runDueJobs(f.t.app)
    const outcome = (await progress(removeRun.json().id)).json()
    expect(outcome).toMatchObject({ status: 'finished', done: 1, failed: 1 })
    expect(outcome.items[0]).toMatchObject({ dispatchId: gone[0], status: 'failed', error: M.removedUpstream })
    expect(outcome.items[1]).toMatchObject({ dispatchId: gone[1], status: 'done', error: null })
  })

  it('carries on after its worker is stopped mid-run: a new worker takes the items left, each done once', async () => {
    const chosen = [ids[4]!, ids[5]!, ids[6]!, ids[7]!]
    for (const id of chosen) f.sim.touchDispatch(id, { enabled: true })
    const res = await start({ action: 'disable', dispatchIds: chosen })
    expect(res.statusCode, res.body).toBe(202)
    const runId = res.json().id
    const t0 = new Date()

    // The first worker claims a chunk, carries out two items and stops (as if killed).
    let carried = 0
    const first = await renewalParts(f.t.app).bulk.process(
      runId,
      () => t0,
      () => carried++ >= 2,
    )
    expect(first.processed).toBe(2)
    const halfway = (await progress(runId)).json()
    expect(halfway).toMatchObject({ status: 'running', done: 2 })
    expect(halfway.items.map((i: { status: string }) => i.status)).toEqual(['done', 'done', 'running', 'running'])

    // Within the lease, the claimed items are still the stopped worker's.
    expect(await renewalParts(f.t.app).bulk.resumeOpen(() => new Date(t0.getTime() + 60_000))).toBe(0)
    // After it, the next worker's sweep takes them.
    const later = new Date(t0.getTime() + BULK_LEASE_MS + 1_000)
    expect(await renewalParts(f.t.app).bulk.resumeOpen(() => later)).toBe(2)
    const done = (await progress(runId)).json()
    expect(done).toMatchObject({ status: 'finished', done: 4, failed: 0 })
    for (const c of chosen) expect(f.sim.data.getDispatch(c)!.enabled).toBe(false)
    expect(await bulkUpdates(runId)).toHaveLength(4)
    // The run's own job, when it comes, finds nothing left.
    await runDueJobs(f.t.app)
    expect(await bulkUpdates(runId)).toHaveLength(4)
  })

  it('schedules a renewal for each selected dispatch', async () => {
    const runOn = utcDay(new Date(Date.now() + 7 * 86_400_000))
    const res = await start({ action: 'scheduleRenewal', dispatchIds: [ids[8]!], renewal: { runOn, resetCount: true } })
    expect(res.statusCode, res.body).toBe(202)
    await runDueJobs(f.t.app)
    expect((await progress(res.json().id)).json()).toMatchObject({ status: 'finished', done: 1 })
    const listed = await f.t.app.inject({ method: 'GET', url: '/api/dispatches/renewals', headers: f.admin })
    expect(listed.json().renewals).toContainEqual(
      expect.objectContaining({ dispatchId: ids[8], runOn, resetCount: true, status: 'scheduled' }),
    )
  })

  it('refuses bad input with a clear JSON error and starts nothing', async () => {
    const before = await runCount()
    const ownCount = (await f.mirrorRow(f.ownDispatchId))!.registrationCount
    const yesterday = utcDay(new Date(Date.now() - 86_400_000))
    const cases: [Record<string, unknown>, number, string][] = [
      [{ action: 'explode', dispatchIds: [f.ownDispatchId] }, 400, M.unknownAction],
      [{ action: 'setCap', dispatchIds: [f.ownDispatchId] }, 400, M.nothingToChange],
      [{ action: 'setExpiry', dispatchIds: [f.ownDispatchId] }, 400, M.nothingToChange],
      [{ action: 'scheduleRenewal', dispatchIds: [f.ownDispatchId] }, 400, M.nothingToChange],
      [
        { action: 'scheduleRenewal', dispatchIds: [f.ownDispatchId], renewal: { runOn: yesterday, resetCount: true } },
        400,
        M.dateInPast,
      ],
      [{ action: 'disable', dispatchIds: [] }, 400, M.noDispatches],
      [
        { action: 'disable', companyId: f.companyId, dispatchIds: [f.ownDispatchId, f.foreignDispatchId] },
        403,
        M.otherCompany,
      ],
      [
        { action: 'disable', dispatchIds: Array.from({ length: BULK_MAX_DISPATCHES + 1 }, (_, i) => `d${i}`) },
        400,
        M.tooMany,
      ],
      [{ action: 'disable', dispatchIds: ['nope'] }, 404, M.notFound],
    ]
    if (ownCount > 0)
      cases.push([
        { action: 'setCap', dispatchIds: [f.ownDispatchId], registrationCap: ownCount - 1 || 1 },
        400,
        M.capBelowCount(ownCount),
      ])
    for (const [payload, status, message] of cases) {
      const res = await start(payload)
      expect(res.statusCode, JSON.stringify(payload).slice(0, 120)).toBe(status)
      expect(res.json().message).toBe(message)
    }
    expect(await runCount()).toBe(before)
  })

  it('is for staff who may edit dispatches (admin) only', async () => {
    const ok = await start({ action: 'enable', dispatchIds: [f.ownDispatchId] })
    expect(ok.statusCode).toBe(202)
    expect((await progress(ok.json().id)).statusCode).toBe(200)
    for (const role of ['internal', 'sales', 'client'] as const) {
      const headers = role === 'client' ? f.client : (await f.t.loginAs(role)).headers
      expect((await start({ action: 'enable', dispatchIds: [f.ownDispatchId] }, headers)).statusCode, role).toBe(403)
      expect((await progress(ok.json().id, headers)).statusCode, role).toBe(403)
    }
    await runDueJobs(f.t.app)
  })
})
