import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DispatchHistoryEntry, DispatchHistoryResponse } from '@portal/shared'
import { appParts } from '../../app'
import { providerApp, type ProviderApp } from './dispatch-actions.test-support'

let p: ProviderApp

/** Licence changes made at SCORM Cloud, outside the portal, found by the real sync. */
beforeAll(async () => {
  p = await providerApp()
})
afterAll(async () => {
  await p.close()
})

const entries = async (id: string): Promise<DispatchHistoryEntry[]> => {
  const res = await p.t.app.inject({ method: 'GET', url: `/api/dispatches/${id}/history?limit=100`, headers: p.admin })
  expect(res.statusCode, res.body).toBe(200)
  return (res.json() as DispatchHistoryResponse).entries
}
const sync = async () => expect((await appParts(p.t.app).sync!.run({ trigger: 'manual' })).ok).toBe(true)

describe('licence history found upstream by the sync', () => {
  it('records cap, expiry and enabled changes made upstream, marked as found by the sync', async () => {
    const id = p.foreignDispatchId
    const before = (await p.mirrorRow(id))!
    const known = (await entries(id)).length
    p.sim.touchDispatch(id, {
      registrationCap: before.registrationCap + 11,
      expirationDate: '2032-01-31T00:00:00.000Z',
      enabled: !before.enabled,
    })
    await sync()
    const rows = await entries(id)
    expect(rows).toHaveLength(known + 3)
    const byKind = Object.fromEntries(rows.slice(0, 3).map((r) => [r.kind, r]))
    expect(byKind.cap).toMatchObject({
      oldValue: String(before.registrationCap),
      newValue: String(before.registrationCap + 11),
      countBefore: before.registrationCount,
      countAfter: before.registrationCount,
      source: 'upstream',
      actor: { kind: 'sync', label: 'Found upstream by the sync' },
    })
    expect(byKind.expiry).toMatchObject({ newValue: '2032-01-31T00:00:00.000Z', source: 'upstream' })
    expect(byKind.enabled).toMatchObject({ newValue: String(!before.enabled), source: 'upstream' })
  })

  it('records a counter reset made upstream with the count before and after', async () => {
    const id = p.foreignDispatchId
    p.sim.touchDispatch(id, { registrationCount: 9 })
    await sync()
    await appParts(p.t.app).scormCloud!.resetRegistrationCount(id)
    await sync()
    const [reset] = await entries(id)
    expect(reset).toMatchObject({ kind: 'count_reset', countBefore: 9, countAfter: 0, source: 'upstream' })
  })

  it('records nothing for a sync that finds no licence change, nor again for an edit the portal made', async () => {
    const id = p.ownDispatchId
    const res = await p.t.app.inject({
      method: 'PUT',
      url: `/api/dispatches/${id}`,
      headers: p.admin,
      payload: { registrationCap: 321 },
    })
    expect(res.statusCode, res.body).toBe(200)
    const known = await entries(id)
    expect(known[0]).toMatchObject({ kind: 'cap', newValue: '321', source: 'portal' })
    p.sim.touchDispatch(id, { notes: 'only the notes changed upstream' })
    await sync()
    expect(await entries(id)).toEqual(known)
  })
})
