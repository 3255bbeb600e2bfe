import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulator, type Simulator } from './simulator'
import { testClient, type TestClient } from './test-support'
import type {
  CourseSchema,
  DestinationIdSchema,
  DispatchIdSchema,
  RegistrationSchema,
} from '@portal/server/scorm-cloud-types'

describe('lists: paging and filters (page size 7)', () => {
  let sim: Simulator
  let api: TestClient

  beforeAll(async () => {
    sim = await startSimulator({
      seed: 5,
      pageSize: 7,
      sizes: { courses: 12, destinations: 6, dispatches: 40, registrations: 600 },
    })
    api = testClient(sim)
  })
  afterAll(() => sim.close())

  const lists = [
    ['/courses', 'courses', (x: CourseSchema) => x.id, 12],
    ['/dispatch/destinations', 'destinations', (x: DestinationIdSchema) => x.id, 6],
    ['/dispatch/dispatches', 'dispatches', (x: DispatchIdSchema) => x.id, 40],
    ['/registrations', 'registrations', (x: RegistrationSchema) => x.id, 600],
  ] as const

  for (const [path, key, id, expected] of lists) {
    it(`${path} pages to the end returning each item once, matching X-Total-Count`, async () => {
      const { items, pages, totalCount } = await api.getAll<never>(`${path}?includeTotalCount=true`, key)
      const ids = items.map((item) => (id as (x: never) => string)(item))
      expect(totalCount).toBe(expected)
      expect(ids).toHaveLength(expected)
      expect(new Set(ids).size).toBe(expected)
      expect(pages).toBe(Math.ceil(expected / 7))
    })
  }

  it('sorts registrations by created_desc by default and honours orderBy', async () => {
    const desc = (await api.getAll<RegistrationSchema>('/registrations', 'registrations')).items.map((r) =>
      Date.parse(r.createdDate ?? ''),
    )
    expect(desc).toEqual([...desc].sort((a, b) => b - a))
    for (const orderBy of ['created_asc', 'updated_asc', 'updated_desc']) {
      const items = (await api.getAll<RegistrationSchema>(`/registrations?orderBy=${orderBy}`, 'registrations')).items
      const field = orderBy.startsWith('created') ? 'createdDate' : 'updated'
      const times = items.map((r) => Date.parse(r[field] ?? ''))
      expect(times).toEqual([...times].sort((a, b) => (orderBy.endsWith('asc') ? a - b : b - a)))
      expect(items).toHaveLength(600)
      expect(new Set(items.map((r) => r.id)).size).toBe(600)
    }
    expect((await api.get('/registrations?orderBy=learner_shoe_size_asc')).status).toBe(400)
  })

  it('filters registrations by since/until (inclusive) on created by default, or on updated', async () => {
    const all = (await api.getAll<RegistrationSchema>('/registrations', 'registrations')).items
    const created = all.map((r) => r.createdDate as string).sort()
    const since = created[100] as string
    const until = created[400] as string
    const inRange = all.filter((r) => (r.createdDate as string) >= since && (r.createdDate as string) <= until)
    const got = await api.getAll<RegistrationSchema>(
      `/registrations?since=${since}&until=${until}&includeTotalCount=true`,
      'registrations',
    )
    expect(got.items.map((r) => r.id).sort()).toEqual(inRange.map((r) => r.id).sort())
    expect(got.totalCount).toBe(inRange.length)

    const updated = all.map((r) => r.updated as string).sort()
    const from = updated[500] as string
    const expected = all.filter((r) => (r.updated as string) >= from)
    const byUpdated = await api.getAll<RegistrationSchema>(
      `/registrations?since=${from}&datetimeFilter=updated&includeTotalCount=true`,
      'registrations',
    )
    expect(byUpdated.items.map((r) => r.id).sort()).toEqual(expected.map((r) => r.id).sort())
    expect(byUpdated.totalCount).toBe(expected.length)
    expect((await api.get('/registrations?since=yesterday')).status).toBe(400)
  })

  it('filters registrations and dispatches by courseId', async () => {
    const courseId = sim.data.listCourseIds()[2] as string
    const regs = await api.getAll<RegistrationSchema>(
      `/registrations?courseId=${courseId}&includeTotalCount=true`,
      'registrations',
    )
    expect(regs.items.length).toBeGreaterThan(0)
    expect(regs.items.every((r) => r.course?.id === courseId)).toBe(true)
    expect(regs.totalCount).toBe(sim.data.getCourse(courseId)?.registrationCount)
    const dispatches = await api.getAll<DispatchIdSchema>(
      `/dispatch/dispatches?courseId=${courseId}&includeTotalCount=true`,
      'dispatches',
    )
    expect(dispatches.items.length).toBeGreaterThan(0)
    expect(dispatches.items.every((d) => d.data.courseId === courseId)).toBe(true)
    // Every registration of the course belongs to one of the course's dispatches.
    const ids = new Set(dispatches.items.map((d) => d.id))
    expect(regs.items.every((r) => ids.has(r.dispatchId ?? ''))).toBe(true)
    const none = await api.get<{ registrations: unknown[] }>('/registrations?courseId=no-such-course')
    expect(none.body.registrations).toEqual([])
  })

  it('filters registrations by learnerId', async () => {
    const all = (await api.getAll<RegistrationSchema>('/registrations', 'registrations')).items
    // Preferably a learner with registrations in more than one dispatch.
    const learnerIds = all.map((r) => r.learner?.id as string)
    const learnerId =
      learnerIds.find((id) => learnerIds.filter((x) => x === id).length > 1) ?? (learnerIds[0] as string)
    const expected = all.filter((r) => r.learner?.id === learnerId).map((r) => r.id)
    const got = await api.getAll<RegistrationSchema>(
      `/registrations?learnerId=${learnerId}&includeTotalCount=true`,
      'registrations',
    )
    expect(got.items.map((r) => r.id).sort()).toEqual(expected.sort())
    expect(got.totalCount).toBe(expected.length)
    expect(new Set(got.items.map((r) => r.dispatchId)).size).toBe(expected.length) // never twice in one dispatch
    const unknown = await api.get<{ registrations: unknown[] }>('/registrations?learnerId=somebody-else')
    expect(unknown.body.registrations).toEqual([])
  })

  it('filters dispatches by since/until on updated (default) and by isEnabled', async () => {
    const all = (await api.getAll<DispatchIdSchema>('/dispatch/dispatches', 'dispatches')).items
    const times = all.map((d) => d.data.updated as string).sort()
    const since = times[10] as string
    const until = times[30] as string
    const got = await api.getAll<DispatchIdSchema>(`/dispatch/dispatches?since=${since}&until=${until}`, 'dispatches')
    expect(got.items.map((d) => d.id).sort()).toEqual(
      all
        .filter((d) => (d.data.updated as string) >= since && (d.data.updated as string) <= until)
        .map((d) => d.id)
        .sort(),
    )
    const createdSince = all.map((d) => d.data.created as string).sort()[20] as string
    const byCreated = await api.getAll<DispatchIdSchema>(
      `/dispatch/dispatches?since=${createdSince}&datetimeFilter=created`,
      'dispatches',
    )
    expect(byCreated.items.every((d) => (d.data.created as string) >= createdSince)).toBe(true)
    expect(byCreated.items).toHaveLength(all.filter((d) => (d.data.created as string) >= createdSince).length)
    const disabled = await api.getAll<DispatchIdSchema>('/dispatch/dispatches?isEnabled=false', 'dispatches')
    expect(disabled.items.map((d) => d.id).sort()).toEqual(
      all
        .filter((d) => d.data.enabled === false)
        .map((d) => d.id)
        .sort(),
    )
  })

  it('lists the dispatches of one destination', async () => {
    const destinationId = sim.data.listDestinationIds()[0] as string
    const got = await api.getAll<DispatchIdSchema>(
      `/dispatch/destinations/${destinationId}/dispatches?includeTotalCount=true`,
      'dispatches',
    )
    expect(got.items.every((d) => d.data.destinationId === destinationId)).toBe(true)
    expect(got.totalCount).toBe(sim.data.getDestination(destinationId)?.dispatchCount)
    expect((await api.get('/dispatch/destinations/nobody/dispatches')).status).toBe(404)
  })

  it('needs nothing but the more token for follow-up pages and rejects bad tokens', async () => {
    const first = await api.get<{ courses: CourseSchema[]; more?: string }>(
      '/courses?orderBy=title_asc&includeRegistrationCount=true',
    )
    expect(first.body.more).toBeTruthy()
    const rest = await api.get<{ courses: CourseSchema[] }>(
      `/courses?more=${first.body.more ?? ''}&orderBy=created_desc`,
    )
    const courses = [...first.body.courses, ...rest.body.courses]
    const titles = courses.map((c) => c.title as string)
    expect(titles).toHaveLength(12)
    expect(titles).toEqual([...titles].sort())
    expect(courses.every((c) => typeof c.registrationCount === 'number')).toBe(true)
    const tagged = await api.getAll<CourseSchema>('/courses?tags=safety,security', 'courses')
    expect(tagged.items.map((c) => c.id).sort()).toEqual(
      courses
        .filter((c) => c.tags?.some((t) => t === 'safety' || t === 'security'))
        .map((c) => c.id)
        .sort(),
    )
    const bad = await api.get<{ message: string }>('/registrations?more=not-a-token')
    expect(bad.status).toBe(400)
    expect(bad.body.message).toMatch(/more/)
    // A token of another list is not accepted either.
    expect((await api.get(`/registrations?more=${first.body.more}`)).status).toBe(400)
  })

  it('shows changed registrations in an incremental (updated since) listing', async () => {
    const before = new Date(sim.options.clock()).toISOString()
    const target = sim.data.registrationAt(17) as RegistrationSchema
    sim.touchRegistration(target.id, { registrationCompletion: 'COMPLETED', registrationSuccess: 'PASSED', score: 91 })
    const added = sim.addRegistration(sim.data.listDispatchIds()[0] as string)
    const got = await api.getAll<RegistrationSchema>(
      `/registrations?since=${before}&datetimeFilter=updated&includeTotalCount=true`,
      'registrations',
    )
    expect(got.items.map((r) => r.id).sort()).toEqual([target.id, added.id].sort())
    expect(got.totalCount).toBe(2)
    const changed = got.items.find((r) => r.id === target.id)
    expect(changed).toMatchObject({
      registrationCompletion: 'COMPLETED',
      registrationSuccess: 'PASSED',
      score: { scaled: 91 },
    })
    // The full list still has every registration exactly once, now 601.
    const all = await api.getAll<RegistrationSchema>('/registrations?includeTotalCount=true', 'registrations')
    expect(all.totalCount).toBe(601)
    expect(all.items).toHaveLength(601)
    expect(new Set(all.items.map((r) => r.id)).size).toBe(601)
    // The changed registration is listed once, in its new state.
    expect(all.items.filter((r) => r.id === target.id)).toEqual([changed])
  })
})

describe('dispatches by creation window', () => {
  let sim: Simulator
  let api: TestClient

  beforeAll(async () => {
    sim = await startSimulator({
      seed: 5,
      pageSize: 7,
      sizes: { courses: 12, destinations: 6, dispatches: 40, registrations: 60 },
    })
    api = testClient(sim)
  })
  afterAll(() => sim.close())

  it('counts and lists dispatches by creation window, without deleted ones (the sync’s check for deletions)', async () => {
    const all = (await api.getAll<DispatchIdSchema>('/dispatch/dispatches', 'dispatches')).items
    const created = all.map((d) => d.data.created as string).sort()
    const until = created[29] as string
    const inWindow = (items: DispatchIdSchema[]) => items.filter((d) => (d.data.created as string) <= until)
    const count = await api.get<{ dispatches: unknown[] }>(
      `/dispatch/dispatches?until=${until}&datetimeFilter=created&includeTotalCount=true`,
    )
    expect(count.headers.get('x-total-count')).toBe(String(inWindow(all).length))
    const gone = inWindow(all)[3]!.id
    sim.removeDispatch(gone)
    const listed = await api.getAll<DispatchIdSchema>(
      `/dispatch/dispatches?since=${created[0]}&until=${until}&datetimeFilter=created&includeTotalCount=true`,
      'dispatches',
    )
    expect(listed.totalCount).toBe(inWindow(all).length - 1)
    expect(listed.items.map((d) => d.id).sort()).toEqual(
      inWindow(all)
        .map((d) => d.id)
        .filter((id) => id !== gone)
        .sort(),
    )
  })
})
