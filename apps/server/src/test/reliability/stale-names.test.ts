import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DispatchListResponse } from '@portal/shared'
import type { DispatchSchema } from '../../modules/scorm-cloud/scorm-cloud.types'
import { providerFixture, type ProviderFixture } from './provider.test-support'
import { appParts } from '../../app'

/**
 * Reliability suite: what the screens show after changes upstream that do not
 * move a dispatch's own `updated`. A company or course renamed upstream: after the next
 * incremental sync every dispatch of it shows the new name in the list (search included) and in
 * its details (the dispatch rows are updated in the transaction of the rename). A registration
 * counter reset upstream: after the next incremental sync the dispatch and the License Usage
 * card show the provider's counters (the counter check of the dispatch kind).
 */
let f: ProviderFixture
beforeAll(async () => {
  f = await providerFixture()
})
afterAll(async () => f?.close())

const get = async <T>(url: string) => {
  const res = await f.t.app.inject({ method: 'GET', url, headers: f.admin })
  expect(res.statusCode, res.body).toBe(200)
  return res.json<T>()
}
const list = (query: string) => get<DispatchListResponse>(`/api/dispatches?pageSize=200&${query}`)
const incremental = async () => {
  const outcome = await appParts(f.t.app).sync!.run({ trigger: 'schedule' })
  expect(outcome.results.every((r) => r.full === false && r.status === 'succeeded')).toBe(true)
  return outcome
}
const dispatchesOf = (pick: (d: DispatchSchema) => boolean) =>
  f.sim.data.listDispatchIds().filter((id) => pick(f.sim.data.getDispatch(id)!))

describe('after a rename upstream, an incremental sync', () => {
  it('shows the new company name on every dispatch of the company, in the list and the details', async () => {
    const destinationId = f.sim.data.getDispatch(f.dispatchId)!.destinationId!
    const own = dispatchesOf((d) => d.destinationId === destinationId)
    expect(own.length).toBeGreaterThan(1)
    f.sim.touchDestination(destinationId, { name: 'Renamed Upstream Company' })
    f.sim.resetStats()
    const outcome = await incremental()
    // The dispatch listing returned nothing: their own `updated` did not move.
    expect(outcome.results.find((r) => r.kind === 'dispatches')).toMatchObject({ created: 0, updated: 0 })

    const found = await list('search=Renamed%20Upstream%20Company')
    expect(found.dispatches.map((d) => d.id).sort()).toEqual([...own].sort())
    expect(found.dispatches.every((d) => d.destinationName === 'Renamed Upstream Company')).toBe(true)
    const details = await get<{ destinationName: string }>(`/api/dispatches/${own[0]}`)
    expect(details.destinationName).toBe('Renamed Upstream Company')
  })

  it('shows the new course title on every dispatch of the course', async () => {
    const courseId = f.courseId
    const own = dispatchesOf((d) => d.courseId === courseId)
    f.sim.touchCourse(courseId, { title: 'Renamed Upstream Course' })
    await incremental()
    const found = await list('search=Renamed%20Upstream%20Course')
    expect(found.dispatches.map((d) => d.id).sort()).toEqual([...own].sort())
    const details = await get<{ courseTitle: string }>(`/api/dispatches/${own[0]}`)
    expect(details.courseTitle).toBe('Renamed Upstream Course')
  })
})

describe('after a registration counter reset upstream, an incremental sync', () => {
  it('shows the provider counter on the dispatch and in License Usage', async () => {
    // A capped dispatch with licenses in use, last changed long ago (outside the cursor's overlap).
    const id = dispatchesOf((d) => {
      return (d.registrationCap ?? 0) > 0 && (d.registrationCount ?? 0) > 0
    })[0]!
    const used = f.sim.data.getDispatch(id)!.registrationCount!
    expect(await get<{ registrationCount: number }>(`/api/dispatches/${id}`)).toMatchObject({ registrationCount: used })
    const before = (await list('')).summary

    const updated = f.sim.data.getDispatch(id)!.updated
    expect(f.sim.resetRegistrationCount(id)).toMatchObject({ registrationCount: 0, updated })
    f.sim.resetStats()
    const outcome = await incremental()
    expect(outcome.results.find((r) => r.kind === 'dispatches')!.message).toBe('1 registration counter(s) refreshed.')
    expect(await get<{ registrationCount: number }>(`/api/dispatches/${id}`)).toMatchObject({ registrationCount: 0 })
    const after = (await list('')).summary
    expect(after.cappedRegistrations).toBe(before.cappedRegistrations - used)
    // The mirror's License Usage is the provider's: the capped counters summed upstream.
    const upstream = f.sim.data
      .listDispatchIds()
      .map((d) => f.sim.data.getDispatch(d)!)
      .filter((d) => (d.registrationCap ?? 0) > 0)
    expect(after.cappedRegistrations).toBe(upstream.reduce((n, d) => n + (d.registrationCount ?? 0), 0))
    // Cheap: one counter call per company with a capped dispatch, one re-listing for the changed one.
    const stats = f.sim.stats().byRoute
    const companies = new Set(upstream.map((d) => d.destinationId)).size
    expect(stats['GET /dispatch/destinations/{destinationId}/dispatches/registrationCount']).toBe(companies)
    expect(stats['GET /dispatch/destinations/{destinationId}/dispatches']).toBe(1)
  })
})
