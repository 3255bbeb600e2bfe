import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulator, type Simulator } from './simulator'
import { testClient, type TestClient } from './test-support'
import type { DispatchIdSchema, RegistrationSchema } from '@portal/server/scorm-cloud-types'

// Benchmark size: 50,000 dispatches over 500 destinations, 1,000,000 registrations with
// 100,000 in one dispatch. Registrations are derived on demand; the test checks that lists,
// counts and lookups work at this size (no timing assertions).
describe('benchmark size', () => {
  let sim: Simulator
  let api: TestClient

  beforeAll(async () => {
    sim = await startSimulator({ seed: 2026, sizes: 'bench', pageSize: 1000 })
    api = testClient(sim)
  })
  afterAll(() => sim.close())

  it('reports the configured sizes and holds no registration in memory up front', () => {
    expect(sim.data.counts()).toEqual({
      courses: 300,
      destinations: 500,
      dispatches: 50_000,
      registrations: 1_000_000,
      changedRegistrations: 0,
    })
  })

  it('pages registrations with X-Total-Count and consistent ordering', async () => {
    const first = await api.get<{ registrations: RegistrationSchema[]; more?: string }>(
      '/registrations?includeTotalCount=true',
    )
    expect(first.status).toBe(200)
    expect(first.headers.get('x-total-count')).toBe('1000000')
    expect(first.body.registrations).toHaveLength(1000)
    const second = await api.get<{ registrations: RegistrationSchema[]; more?: string }>(
      `/registrations?more=${first.body.more}`,
    )
    expect(second.body.registrations).toHaveLength(1000)
    const dates = [...first.body.registrations, ...second.body.registrations].map((r) =>
      Date.parse(r.createdDate ?? ''),
    )
    expect(dates).toEqual([...dates].sort((a, b) => b - a))
    const ids = new Set([...first.body.registrations, ...second.body.registrations].map((r) => r.id))
    expect(ids.size).toBe(2000)
  })

  it('has one dispatch with 100,000 registrations, reachable through its course filter', async () => {
    const big = sim.data
      .listDispatchIds()
      .map((id) => ({ id, d: sim.data.getDispatch(id) }))
      .find((x) => x.d?.registrationCount && x.d.registrationCount >= 100_000)
    expect(big?.d?.registrationCount).toBeGreaterThanOrEqual(100_000)
    const courseId = big?.d?.courseId as string
    const dispatches = await api.getAll<DispatchIdSchema>(`/dispatch/dispatches?courseId=${courseId}`, 'dispatches')
    const expected = dispatches.items.reduce((sum, d) => sum + (d.data.registrationCount ?? 0), 0)
    const regs = await api.get<{ registrations: RegistrationSchema[] }>(
      `/registrations?courseId=${courseId}&includeTotalCount=true`,
    )
    expect(regs.headers.get('x-total-count')).toBe(String(expected))
    expect(regs.body.registrations.every((r) => r.course?.id === courseId)).toBe(true)
    const sample = sim.data.listRegistrationIds(big?.id as string, 3)
    expect(sample).toHaveLength(3)
    for (const id of sample)
      expect((await api.get<RegistrationSchema>(`/registrations/${id}`)).body.dispatchId).toBe(big?.id)
  })

  it('pages 50,000 dispatches and counts an updated-since window', async () => {
    const first = await api.get<{ dispatches: DispatchIdSchema[]; more?: string }>(
      '/dispatch/dispatches?includeTotalCount=true',
    )
    expect(first.headers.get('x-total-count')).toBe('50000')
    const next = await api.get<{ dispatches: DispatchIdSchema[] }>(`/dispatch/dispatches?more=${first.body.more}`)
    const updated = [...first.body.dispatches, ...next.body.dispatches].map((d) => d.data.updated as string)
    expect(updated).toEqual([...updated].sort())
    const since = '2025-12-01T00:00:00.000Z'
    const window = await api.get<{ registrations: RegistrationSchema[] }>(
      `/registrations?since=${since}&datetimeFilter=updated&includeTotalCount=true`,
    )
    const total = Number(window.headers.get('x-total-count'))
    expect(total).toBeGreaterThan(0)
    expect(total).toBeLessThan(1_000_000)
    expect(window.body.registrations.every((r) => (r.updated as string) >= since)).toBe(true)
  })
})
