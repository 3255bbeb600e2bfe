import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { BULK_MAX_DISPATCHES, RENEWAL_MESSAGES as M } from '@portal/shared'
import { dispatch } from '../../db/schema'
import { providerApp, type ProviderApp } from './dispatch-actions.test-support'
import { utcDay } from './renewals.service'

let f: ProviderApp
const today = utcDay(new Date())
const dayAfter = (days: number) => utcDay(new Date(Date.now() + days * 86_400_000))

beforeAll(async () => {
  f = await providerApp()
})
afterAll(async () => f?.close())

const schedule = (payload: Record<string, unknown>, headers = f.admin) =>
  f.t.app.inject({ method: 'POST', url: '/api/dispatches/renewals', headers, payload })
const list = (companyId: string, headers = f.admin) =>
  f.t.app.inject({ method: 'GET', url: `/api/dispatches/renewals?companyId=${encodeURIComponent(companyId)}`, headers })
const cancel = (id: string, headers = f.admin) =>
  f.t.app.inject({ method: 'DELETE', url: `/api/dispatches/renewals/${id}`, headers })

describe('scheduling renewals', () => {
  it('schedules one for every dispatch of a company, lists it, and cancels it', async () => {
    const res = await schedule({ companyId: f.companyId, runOn: dayAfter(3), registrationCap: 500, resetCount: true })
    expect(res.statusCode, res.body).toBe(201)
    const companyDispatches = await f.t.database.db
      .select({ id: dispatch.id })
      .from(dispatch)
      .where(eq(dispatch.destinationId, f.companyId))
    expect(res.json().scheduled).toBe(companyDispatches.length)

    const listed = await list(f.companyId)
    expect(listed.statusCode).toBe(200)
    const mine = listed.json().renewals.filter((r: { id: string }) => res.json().ids.includes(r.id))
    expect(mine).toHaveLength(companyDispatches.length)
    expect(mine[0]).toMatchObject({
      companyId: f.companyId,
      runOn: dayAfter(3),
      registrationCap: 500,
      resetCount: true,
      status: 'scheduled',
      source: 'schedule',
    })
    expect(mine[0].scheduledBy).toBeTruthy()

    const id = res.json().ids[0]
    const cancelled = await cancel(id)
    expect(cancelled.statusCode, cancelled.body).toBe(200)
    expect(cancelled.json().status).toBe('cancelled')
    const again = await cancel(id)
    expect(again.statusCode).toBe(409)
    expect(again.json().message).toBe(M.notCancellable)
  })

  it('schedules one for listed dispatches, today included', async () => {
    const res = await schedule({ dispatchIds: [f.ownDispatchId], runOn: today, expirationDate: dayAfter(400) })
    expect(res.statusCode, res.body).toBe(201)
    expect(res.json().scheduled).toBe(1)
  })

  it('refuses bad input with a clear JSON error and schedules nothing', async () => {
    const before = (await list(f.companyId)).json().renewals.length
    const yesterday = dayAfter(-1)
    const ownCount = (await f.mirrorRow(f.ownDispatchId))!.registrationCount
    expect(ownCount).toBeGreaterThan(0)
    const cases: [Record<string, unknown>, number, string | null][] = [
      [{ dispatchIds: [f.ownDispatchId], runOn: yesterday, resetCount: true }, 400, M.dateInPast],
      [{ dispatchIds: [f.ownDispatchId], runOn: dayAfter(5), expirationDate: dayAfter(4) }, 400, M.expiryBeforeRenewal],
      [
        { dispatchIds: [f.ownDispatchId], runOn: dayAfter(5), registrationCap: ownCount - 1 },
        400,
        M.capBelowCount(ownCount),
      ],
      [{ dispatchIds: [f.ownDispatchId], runOn: dayAfter(5) }, 400, M.nothingToChange],
      [{ dispatchIds: [], runOn: dayAfter(5), resetCount: true }, 400, M.noDispatches],
      [{ runOn: dayAfter(5), resetCount: true }, 400, M.noDispatches],
      [{ dispatchIds: ['no-such-dispatch'], runOn: dayAfter(5), resetCount: true }, 404, M.notFound],
      [
        {
          companyId: f.companyId,
          dispatchIds: [f.ownDispatchId, f.foreignDispatchId],
          runOn: dayAfter(5),
          resetCount: true,
        },
        403,
        M.otherCompany,
      ],
      [
        {
          dispatchIds: Array.from({ length: BULK_MAX_DISPATCHES + 1 }, (_, i) => `d-${i}`),
          runOn: dayAfter(5),
          resetCount: true,
        },
        400,
        M.tooMany,
      ],
      [
        { dispatchIds: [f.ownDispatchId], runOn: '2027-02-30', resetCount: true },
        400,
        'Invalid renewal date. Use YYYY-MM-DD.',
      ],
      [{ dispatchIds: [f.ownDispatchId], runOn: 'tomorrow', resetCount: true }, 400, null],
    ]
    for (const [payload, status, message] of cases) {
      const res = await schedule(payload)
      expect(res.statusCode, JSON.stringify(payload).slice(0, 200)).toBe(status)
      expect(res.headers['content-type']).toMatch(/application\/json/)
      if (message) expect(res.json().message).toBe(message)
      else expect(res.json().message).toBeTruthy()
    }
    // The cap below the count passes once confirmed.
    const confirmed = await schedule({
      dispatchIds: [f.ownDispatchId],
      runOn: dayAfter(5),
      registrationCap: ownCount - 1,
      confirmBelowCount: true,
    })
    expect(confirmed.statusCode, confirmed.body).toBe(201)
    expect((await list(f.companyId)).json().renewals.length).toBe(before + 1)
  })

  it('is for staff who may edit dispatches (admin) only', async () => {
    const payload = { dispatchIds: [f.ownDispatchId], runOn: dayAfter(2), resetCount: true }
    for (const role of ['internal', 'sales', 'client'] as const) {
      const headers = role === 'client' ? f.client : (await f.t.loginAs(role)).headers
      expect((await schedule(payload, headers)).statusCode, role).toBe(403)
      expect((await list(f.companyId, headers)).statusCode, role).toBe(403)
      expect((await cancel('00000000-0000-4000-8000-000000000000', headers)).statusCode, role).toBe(403)
    }
    expect((await f.t.app.inject({ method: 'GET', url: '/api/dispatches/renewals' })).statusCode).toBe(401)
    expect((await cancel('00000000-0000-4000-8000-000000000000')).statusCode).toBe(404)
  })
})
