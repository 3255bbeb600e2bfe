import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulator, type Simulator } from './simulator'
import { testClient, type TestClient } from './test-support'
import type { DispatchIdSchema, RegistrationSchema } from '@portal/server/scorm-cloud-types'

describe('generated demo data', () => {
  let sim: Simulator
  let api: TestClient
  let dispatches: DispatchIdSchema[]
  let registrations: RegistrationSchema[]

  beforeAll(async () => {
    sim = await startSimulator({ seed: 42 })
    api = testClient(sim)
    dispatches = (await api.getAll<DispatchIdSchema>('/dispatch/dispatches', 'dispatches')).items
    registrations = (await api.getAll<RegistrationSchema>('/registrations', 'registrations')).items
  })
  afterAll(() => sim.close())

  it('has the demo sizes by default', () => {
    expect(sim.data.counts()).toMatchObject({ courses: 40, destinations: 15, dispatches: 150, registrations: 5000 })
    expect(dispatches).toHaveLength(150)
    expect(registrations).toHaveLength(5000)
  })

  it('is identical for two simulators with the same seed, and different for another seed', async () => {
    const twin = await startSimulator({ seed: 42, pageSize: 100 })
    const other = await startSimulator({ seed: 43 })
    try {
      const paths = [
        '/courses?includeRegistrationCount=true',
        '/dispatch/destinations?includeDispatchCount=true',
        '/dispatch/dispatches?orderBy=created_desc',
        '/registrations',
        '/registrations?orderBy=updated_asc&datetimeFilter=updated&since=2025-06-01T00:00:00Z',
      ]
      for (const path of paths) {
        const a = await api.get(path)
        const b = await testClient(twin).get(path)
        expect(a.status).toBe(200)
        expect(JSON.stringify(b.body)).toBe(JSON.stringify(a.body))
      }
      const mine = await api.get('/registrations')
      const theirs = await testClient(other).get('/registrations')
      expect(JSON.stringify(theirs.body)).not.toBe(JSON.stringify(mine.body))
    } finally {
      await twin.close()
      await other.close()
    }
  })

  it('links every registration to an existing dispatch of the same course', () => {
    const byId = new Map(dispatches.map((d) => [d.id, d.data]))
    for (const r of registrations) {
      const dispatch = byId.get(r.dispatchId ?? '')
      expect(byId.has(r.dispatchId ?? ''), `dispatch of ${r.id}`).toBe(true)
      expect(r.course?.id).toBe(dispatch?.courseId)
    }
  })

  it("keeps each dispatch's registrationCount equal to its registrations", () => {
    const counted = new Map<string, number>()
    for (const r of registrations) counted.set(r.dispatchId ?? '', (counted.get(r.dispatchId ?? '') ?? 0) + 1)
    for (const d of dispatches) expect(d.data.registrationCount).toBe(counted.get(d.id) ?? 0)
  })

  it('has at most one dispatch per course and destination', () => {
    const pairs = new Set(dispatches.map((d) => `${d.data.courseId}|${d.data.destinationId}`))
    expect(pairs.size).toBe(dispatches.length)
  })

  it('contains unlimited, disabled, expired and over-cap dispatches', () => {
    const epoch = Date.parse(sim.options.epoch)
    const all = dispatches.map((d) => d.data)
    expect(all.some((d) => d.registrationCap === 0)).toBe(true)
    expect(all.some((d) => d.enabled === false)).toBe(true)
    expect(all.some((d) => d.expirationDate !== undefined && Date.parse(d.expirationDate) < epoch)).toBe(true)
    expect(all.some((d) => (d.registrationCap ?? 0) > 0 && (d.registrationCount ?? 0) > (d.registrationCap ?? 0))).toBe(
      true,
    )
  })

  it('mixes progress states realistically', () => {
    const completions = new Set(registrations.map((r) => r.registrationCompletion))
    const successes = new Set(registrations.map((r) => r.registrationSuccess))
    expect([...completions].sort()).toEqual(['COMPLETED', 'INCOMPLETE', 'UNKNOWN'])
    expect([...successes].sort()).toEqual(['FAILED', 'PASSED', 'UNKNOWN'])
    const never = registrations.filter((r) => r.lastAccessDate === undefined)
    expect(never.length).toBeGreaterThan(0)
    for (const r of never) {
      expect(r.registrationCompletion).toBe('UNKNOWN')
      expect(r.firstAccessDate).toBeUndefined()
    }
    const scored = registrations.filter((r) => r.score !== undefined)
    expect(scored.length).toBeGreaterThan(0)
    for (const r of scored) {
      expect(r.score?.scaled).toBeGreaterThanOrEqual(0)
      expect(r.score?.scaled).toBeLessThanOrEqual(100)
    }
    for (const r of registrations.filter((x) => x.registrationCompletion === 'COMPLETED')) {
      expect(Date.parse(r.completedDate ?? '')).toBeGreaterThanOrEqual(Date.parse(r.firstAccessDate ?? ''))
    }
  })

  it('dates all lie before the epoch and in a sensible order', () => {
    const epoch = Date.parse(sim.options.epoch)
    for (const r of registrations) {
      const created = Date.parse(r.createdDate ?? '')
      expect(created).toBeLessThanOrEqual(epoch)
      expect(Date.parse(r.updated ?? '')).toBeGreaterThanOrEqual(created)
      expect(Date.parse(r.updated ?? '')).toBeLessThanOrEqual(epoch)
      if (r.firstAccessDate)
        expect(Date.parse(r.lastAccessDate ?? '')).toBeGreaterThanOrEqual(Date.parse(r.firstAccessDate))
    }
  })

  it('gives learners names and mostly e-mails at their company domain', () => {
    const withEmail = registrations.filter((r) => r.learner?.email)
    expect(withEmail.length / registrations.length).toBeGreaterThan(0.8)
    for (const r of withEmail.slice(0, 200)) {
      const dispatch = dispatches.find((d) => d.id === r.dispatchId)
      const company = (dispatch?.data.destinationId ?? '').replace(/-/g, '')
      expect(r.learner?.email?.split('@')[1]?.startsWith(company)).toBe(true)
      expect(r.learner?.firstName).toBeTruthy()
    }
  })

  it('has unique ids that resolve through the single-item endpoints', async () => {
    expect(new Set(registrations.map((r) => r.id)).size).toBe(registrations.length)
    const sample = registrations[1234] as RegistrationSchema
    const one = await api.get<RegistrationSchema>(`/registrations/${sample.id}`)
    expect(one.status).toBe(200)
    expect(one.body).toEqual(sample)
    expect(sim.data.getRegistration(sample.id)).toEqual(sample)
  })
})
