import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulator, type Simulator } from './simulator'
import { testClient, type TestClient } from './test-support'
import type { DispatchIdSchema, DispatchListSchema, DispatchSchema } from '@portal/server/scorm-cloud-types'

const SIZES = { courses: 10, destinations: 6, dispatches: 40, registrations: 200 }

/** Pages /dispatch/dispatches to the end, calling `between` after the first page. */
async function listDispatches(api: TestClient, between: () => void = () => {}): Promise<string[]> {
  const ids: string[] = []
  let res = await api.get<DispatchListSchema>('/dispatch/dispatches')
  ids.push(...res.body.dispatches.map((d: DispatchIdSchema) => d.id))
  between()
  while (res.body.more) {
    res = await api.get<DispatchListSchema>(`/dispatch/dispatches?more=${encodeURIComponent(res.body.more)}`)
    ids.push(...res.body.dispatches.map((d: DispatchIdSchema) => d.id))
  }
  return ids
}

describe('paging: offset mode', () => {
  let sim: Simulator
  let api: TestClient
  beforeAll(async () => {
    sim = await startSimulator({ seed: 3, pageSize: 7, sizes: SIZES, paging: 'offset' })
    api = testClient(sim)
  })
  afterAll(() => sim.close())

  it('returns every item once while nothing changes', async () => {
    const ids = await listDispatches(api)
    expect(ids).toHaveLength(40)
    expect(new Set(ids).size).toBe(40)
  })

  it('skips live items when items already sent are edited between pages (they move to the end)', async () => {
    const before = await listDispatches(api)
    const seen = await listDispatches(api, () => {
      // Edits bump `updated`: in updated_asc order these leave the first page for the end.
      for (const id of before.slice(0, 3)) sim.touchDispatch(id, { notes: 'edited' })
    })
    const missed = before.filter((id) => !seen.includes(id))
    expect(missed).toHaveLength(3)
    // Every missed item is still there upstream.
    for (const id of missed) expect((await api.get(`/dispatch/dispatches/${id}`)).status).toBe(200)
    // The edited ones were sent twice: once before the edit, once at the end.
    expect(seen.length).toBe(40)
    expect(new Set(seen).size).toBe(37)
  })
})

describe('paging: keyset mode (the default) under the same edits', () => {
  it('misses nothing', async () => {
    const sim = await startSimulator({ seed: 3, pageSize: 7, sizes: SIZES })
    try {
      const api = testClient(sim)
      const before = await listDispatches(api)
      const seen = await listDispatches(api, () => {
        for (const id of before.slice(0, 3)) sim.touchDispatch(id, { notes: 'edited' })
      })
      expect(before.filter((id) => !seen.includes(id))).toEqual([])
    } finally {
      await sim.close()
    }
  })
})

describe('registration counters', () => {
  let sim: Simulator
  let api: TestClient
  beforeAll(async () => {
    sim = await startSimulator({ seed: 3, pageSize: 7, sizes: SIZES })
    api = testClient(sim)
  })
  afterAll(() => sim.close())

  it('resets a dispatch counter without moving `updated`, and reports the reset date', async () => {
    const id = sim.data.listDispatchIds().find((d) => (sim.data.getDispatch(d)?.registrationCount ?? 0) > 0)!
    const before = sim.data.getDispatch(id)!
    expect((await api.del(`/dispatch/dispatches/${id}/registrationCount`)).status).toBe(204)
    const after = (await api.get<DispatchSchema>(`/dispatch/dispatches/${id}`)).body
    expect(after.registrationCount).toBe(0)
    expect(after.updated).toBe(before.updated)
    const counter = await api.get<{ registrationCount: number; lastResetDate?: string }>(
      `/dispatch/dispatches/${id}/registrationCount`,
    )
    expect(counter.body.registrationCount).toBe(0)
    expect(Date.parse(counter.body.lastResetDate ?? '')).not.toBeNaN()
  })

  it('sums the counters of a destination and resets them all', async () => {
    const destinationId = sim.data.listDestinationIds()[1]!
    const own = sim.data
      .listDispatchIds()
      .map((id) => sim.data.getDispatch(id)!)
      .filter((d) => d.destinationId === destinationId)
    const sum = own.reduce((n, d) => n + (d.registrationCount ?? 0), 0)
    expect(sum).toBeGreaterThan(0)
    const path = `/dispatch/destinations/${destinationId}/dispatches/registrationCount`
    expect((await api.get<{ result: number }>(path)).body).toEqual({ result: sum })
    expect((await api.del(path)).status).toBe(204)
    expect((await api.get<{ result: number }>(path)).body).toEqual({ result: 0 })
  })

  it('resets through the test helper too', () => {
    const id = sim.data.listDispatchIds()[5]!
    sim.touchDispatch(id, { registrationCount: 4 })
    const updated = sim.data.getDispatch(id)!.updated
    expect(sim.resetRegistrationCount(id)).toMatchObject({ registrationCount: 0, updated })
  })
})
