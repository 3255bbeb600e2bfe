import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { providerApp, type ProviderApp } from './dispatch-actions.test-support'
import { appParts } from '../../app'

let f: ProviderApp
beforeAll(async () => {
  f = await providerApp()
})
afterAll(async () => f.close())
beforeEach(() => f.sim.clearFaults())

const reset = (id: string, headers = f.admin) =>
  f.t.app.inject({ method: 'POST', url: `/api/dispatches/${id}/registration-count/reset`, headers })

describe('POST /api/dispatches/:id/registration-count/reset', () => {
  it('resets the counter at SCORM Cloud and in the mirror, with the reset date, and logs the count before', async () => {
    f.sim.addRegistration(f.ownDispatchId)
    f.sim.addRegistration(f.ownDispatchId)
    await appParts(f.t.app).sync!.run({ trigger: 'manual' })
    const before = (
      await f.t.app.inject({ method: 'GET', url: `/api/dispatches/${f.ownDispatchId}`, headers: f.admin })
    ).json()
    expect(before.registrationCount).toBeGreaterThanOrEqual(2)
    expect(before.registrationResetDate).toBeNull()

    const res = await reset(f.ownDispatchId)
    expect(res.statusCode, res.body).toBe(200)
    const upstream = f.sim.data.getDispatch(f.ownDispatchId)!
    expect(upstream.registrationCount).toBe(0)
    expect(res.json()).toMatchObject({
      id: f.ownDispatchId,
      registrationCount: 0,
      registrationResetDate: upstream.registrationResetDate,
    })
    const client = await f.t.app.inject({ method: 'GET', url: `/api/dispatches/${f.ownDispatchId}`, headers: f.client })
    expect(client.json()).toMatchObject({ registrationCount: 0, registrationResetDate: upstream.registrationResetDate })
    expect((await f.activity('DISPATCH_COUNT_RESET'))[0]!.details).toMatchObject({
      dispatchId: f.ownDispatchId,
      companyId: f.companyId,
      registrationCountBefore: before.registrationCount,
    })
  })

  it('mirrors a reset made outside the portal on the next sync', async () => {
    const res = await fetch(`${f.sim.url}/dispatch/dispatches/${f.foreignDispatchId}/registrationCount`, {
      method: 'DELETE',
      headers: { Authorization: f.sim.authorization },
    })
    expect(res.status).toBe(204)
    await appParts(f.t.app).sync!.run({ trigger: 'manual' })
    const row = await f.mirrorRow(f.foreignDispatchId)
    expect(row!.registrationResetDate?.toISOString()).toBe(
      f.sim.data.getDispatch(f.foreignDispatchId)!.registrationResetDate,
    )
  })

  it('changes nothing when SCORM Cloud refuses (502)', async () => {
    f.sim.addRegistration(f.foreignDispatchId)
    await appParts(f.t.app).sync!.run({ trigger: 'manual' })
    const before = await f.mirrorRow(f.foreignDispatchId)
    f.sim.setFaults({ errorRate: 1, errorStatuses: [500], onlyPaths: ['/dispatch/dispatches/'] })
    const res = await reset(f.foreignDispatchId)
    f.sim.clearFaults()
    expect(res.statusCode).toBe(502)
    expect(await f.mirrorRow(f.foreignDispatchId)).toEqual(before)
    expect(f.sim.data.getDispatch(f.foreignDispatchId)!.registrationCount).toBe(before!.registrationCount)
  })

  it('is for admins only, and 404 for an unknown dispatch', async () => {
    for (const role of ['internal', 'sales', 'client'] as const) {
      const headers = role === 'client' ? f.client : (await f.t.loginAs(role)).headers
      expect((await reset(f.ownDispatchId, headers)).statusCode, role).toBe(403)
    }
    expect(
      (await f.t.app.inject({ method: 'POST', url: `/api/dispatches/${f.ownDispatchId}/registration-count/reset` }))
        .statusCode,
    ).toBe(401)
    expect((await reset('no-such-dispatch')).statusCode).toBe(404)
  })
})
