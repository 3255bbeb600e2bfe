import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { inspectDestinationPackage, inspectPackage } from './package-inspect'
import { startSimulator, type Simulator } from './simulator'
import { testClient, type TestClient } from './test-support'
import type { DispatchIdSchema, DispatchSchema } from '@portal/server/scorm-cloud-types'

const SIZES = { courses: 6, destinations: 3, dispatches: 6, registrations: 12, bigDispatchRegistrations: 0 }

async function zipOf(sim: Simulator, path: string): Promise<{ status: number; headers: Headers; bytes: Uint8Array }> {
  const res = await fetch(`${sim.url}${path}`, { headers: { Authorization: sim.authorization } })
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) }
}

/** A course+destination pair that has no dispatch yet. */
function freePair(sim: Simulator): { courseId: string; destinationId: string } {
  const taken = new Set(
    sim.data.listDispatchIds().map((id) => {
      const d = sim.data.getDispatch(id)!
      return `${d.courseId}|${d.destinationId}`
    }),
  )
  for (const courseId of sim.data.listCourseIds())
    for (const destinationId of sim.data.listDestinationIds())
      if (!taken.has(`${courseId}|${destinationId}`)) return { courseId, destinationId }
  throw new Error('no free pair')
}

describe('dispatch writes and packages', () => {
  let sim: Simulator
  let api: TestClient

  beforeAll(async () => {
    sim = await startSimulator({ seed: 4, sizes: SIZES, pageSize: 4 })
    api = testClient(sim)
  })
  afterAll(() => sim.close())

  it('creates a dispatch with the given id and fields (204), listed like the generated ones', async () => {
    const pair = freePair(sim)
    const res = await api.request('POST', '/dispatch/dispatches', {
      dispatches: [
        {
          id: 'created-1',
          data: { ...pair, registrationCap: 25, notes: 'n', tags: ['a'], expirationDate: '2030-01-01T00:00:00.000Z' },
        },
      ],
    })
    expect(res.status).toBe(204)
    const one = await api.get<DispatchSchema>('/dispatch/dispatches/created-1')
    expect(one.body).toMatchObject({
      ...pair,
      registrationCap: 25,
      registrationCount: 0,
      enabled: true,
      notes: 'n',
      tags: ['a'],
      expirationDate: '2030-01-01T00:00:00.000Z',
    })
    const list = await api.getAll<DispatchIdSchema>(
      `/dispatch/destinations/${pair.destinationId}/dispatches`,
      'dispatches',
    )
    expect(list.items.map((d) => d.id)).toContain('created-1')
    const byCourse = await api.get<{ dispatches: DispatchIdSchema[] }>(
      `/dispatch/destinations/${pair.destinationId}/dispatches?courseId=${pair.courseId}`,
    )
    expect(byCourse.body.dispatches.map((d) => d.id)).toEqual(['created-1'])
  })

  it('refuses an existing id or, with an id, an existing pair (400), and changes nothing', async () => {
    const existing = sim.data.getDispatch('created-1')!
    const again = await api.request<{ message: string }>('POST', '/dispatch/dispatches', {
      dispatches: [{ id: 'created-1', data: freePair(sim) }],
    })
    expect(again.status).toBe(400)
    expect(again.body.message).toMatch(/already exists/)
    const pairTaken = await api.request<{ message: string }>('POST', '/dispatch/dispatches', {
      dispatches: [{ id: 'created-2', data: { courseId: existing.courseId, destinationId: existing.destinationId } }],
    })
    expect(pairTaken.status).toBe(400)
    expect(sim.data.getDispatch('created-2')).toBeUndefined()
    const unknownCourse = await api.request('POST', '/dispatch/dispatches', {
      dispatches: [{ data: { courseId: 'nope', destinationId: existing.destinationId } }],
    })
    expect(unknownCourse.status).toBe(400)
  })

  it('modifies the existing dispatch when the pair comes again without an id', async () => {
    const existing = sim.data.getDispatch('created-1')!
    const before = sim.data.counts().dispatches
    const res = await api.request('POST', '/dispatch/dispatches', {
      dispatches: [
        { data: { courseId: existing.courseId, destinationId: existing.destinationId, registrationCap: 40 } },
      ],
    })
    expect(res.status).toBe(204)
    expect(sim.data.counts().dispatches).toBe(before)
    expect(sim.data.getDispatch('created-1')!.registrationCap).toBe(40)
  })

  it('serves a SCORM 1.2 stub zip: one organization, one SCO, a launch page pointing at the launch URL', async () => {
    const id = sim.data.listDispatchIds()[0]!
    const zip = await zipOf(sim, `/dispatch/dispatches/${id}/zip?type=SCORM_12`)
    expect(zip.status).toBe(200)
    expect(zip.headers.get('content-type')).toBe('application/zip')
    expect(Number(zip.headers.get('content-length'))).toBe(zip.bytes.length)
    const pkg = inspectPackage(zip.bytes)
    expect(pkg.manifest).toEqual({ schemaVersion: '1.2', organizations: 1, scos: 1, launchHref: 'launch.html' })
    const launchUrl = `${new URL(sim.url).origin}/dispatch/launch/${encodeURIComponent(id)}`
    expect(pkg.launchPage).toContain(`href="${launchUrl}"`)
    const launch = await fetch(launchUrl)
    expect(launch.status).toBe(200)
    expect(await launch.text()).toContain(sim.data.getDispatch(id)!.courseTitle!)
    // The same dispatch always gives the same bytes.
    expect((await zipOf(sim, `/dispatch/dispatches/${id}/zip`)).bytes).toEqual(zip.bytes)
    expect((await zipOf(sim, `/dispatch/dispatches/${id}/zip?type=AICC`)).status).toBe(400)
    expect((await zipOf(sim, '/dispatch/dispatches/nope/zip')).status).toBe(404)
  })

  it('serves a destination zip with one inner package per dispatch of that destination', async () => {
    const destinationId = sim.data.getDispatch('created-1')!.destinationId!
    const ids = sim.data.listDispatchIds().filter((id) => sim.data.getDispatch(id)!.destinationId === destinationId)
    const zip = await zipOf(sim, `/dispatch/destinations/${destinationId}/dispatches/zip`)
    expect(zip.status).toBe(200)
    expect(Number(zip.headers.get('content-length'))).toBe(zip.bytes.length)
    const inner = inspectDestinationPackage(zip.bytes)
    expect(Object.keys(inner)).toHaveLength(ids.length)
    for (const pkg of Object.values(inner)) expect(pkg.manifest.scos).toBe(1)
    expect(Object.keys(inner).some((name) => name.endsWith(' - created-1.zip'))).toBe(true)
  })

  it('pads packages to the configured size and streams them with their length', async () => {
    sim.setPackagePadding(3_000_000)
    try {
      const id = sim.data.listDispatchIds()[1]!
      const zip = await zipOf(sim, `/dispatch/dispatches/${id}/zip`)
      expect(zip.bytes.length).toBeGreaterThan(3_000_000)
      expect(Number(zip.headers.get('content-length'))).toBe(zip.bytes.length)
      const pkg = inspectPackage(zip.bytes)
      expect(pkg.files['padding.bin']!.length).toBe(3_000_000)
      expect(pkg.manifest.scos).toBe(1)
    } finally {
      sim.setPackagePadding(0)
    }
    expect(() => sim.setPackagePadding(-1)).toThrow(/packagePaddingBytes/)
  })

  it('resets the registration counter and reports the reset date', async () => {
    const id = sim.data.listDispatchIds()[2]!
    sim.addRegistration(id)
    expect(sim.data.getDispatch(id)!.registrationCount).toBeGreaterThan(0)
    const res = await api.del(`/dispatch/dispatches/${id}/registrationCount`)
    expect(res.status).toBe(204)
    const after = sim.data.getDispatch(id)!
    expect(after.registrationCount).toBe(0)
    expect(Number.isNaN(Date.parse(after.registrationResetDate!))).toBe(false)
    const count = await api.get<{ registrationCount: number; lastResetDate: string }>(
      `/dispatch/dispatches/${id}/registrationCount`,
    )
    expect(count.body).toEqual({ registrationCount: 0, lastResetDate: after.registrationResetDate })
    expect((await api.del('/dispatch/dispatches/nope/registrationCount')).status).toBe(404)
  })

  it('lists registrations added to a created dispatch under its course', async () => {
    const reg = sim.addRegistration('created-1')
    const course = sim.data.getDispatch('created-1')!.courseId!
    const list = await api.getAll<{ id: string; dispatchId: string }>(
      `/registrations?courseId=${course}`,
      'registrations',
    )
    expect(list.items.find((r) => r.id === reg.id)?.dispatchId).toBe('created-1')
  })
})
