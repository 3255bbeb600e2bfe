import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulator, type Simulator } from './simulator'
import { testClient, type TestClient } from './test-support'
import type { DestinationInfoSchema, DispatchIdSchema, DispatchSchema } from '@portal/server/scorm-cloud-types'

describe('API behaviour', () => {
  let sim: Simulator
  let api: TestClient
  let dispatchId: string

  beforeAll(async () => {
    sim = await startSimulator({ seed: 9 })
    api = testClient(sim)
    dispatchId = sim.data.listDispatchIds()[5] as string
  })
  afterAll(() => sim.close())

  it('answers 401 with the documented body for missing or wrong credentials', async () => {
    const missing = await fetch(`${sim.url}/ping`)
    expect(missing.status).toBe(401)
    expect(await missing.json()).toEqual({ error: 'Authorization Required.' })
    const wrong = await api.request('GET', '/dispatch/dispatches', undefined, {
      Authorization: `Basic ${Buffer.from(`${sim.appId}:nope`).toString('base64')}`,
    })
    expect(wrong.status).toBe(401)
    expect(wrong.body).toEqual({ error: 'Authorization Required.' })
  })

  it('answers ping with apiMessage and currentTime', async () => {
    const res = await api.get<{ apiMessage: string; currentTime: string }>('/ping')
    expect(res.status).toBe(200)
    expect(res.body.apiMessage).toBe('pong')
    expect(Number.isNaN(Date.parse(res.body.currentTime))).toBe(false)
  })

  it('answers unknown paths and ids with 404 and a message', async () => {
    for (const path of [
      '/no/such/thing',
      '/dispatch/dispatches/nope',
      '/courses/nope',
      '/registrations/nope',
      '/dispatch/destinations/nope',
    ]) {
      const res = await api.get<{ message: string }>(path)
      expect(res.status, path).toBe(404)
      expect(typeof res.body.message).toBe('string')
    }
    const existing = sim.data.registrationAt(0)?.id as string
    expect((await api.request('HEAD', `/registrations/${existing}`)).status).toBe(200)
    expect((await api.request('HEAD', '/registrations/nope')).status).toBe(404)
    expect((await api.request('PATCH', '/ping')).status).toBe(405)
    const outside = await fetch(sim.url.replace('/api/v2', '/other'), { headers: { Authorization: sim.authorization } })
    expect(outside.status).toBe(404)
  })

  it('serves a single dispatch flat, equal to its list item data', async () => {
    const one = await api.get<DispatchSchema>(`/dispatch/dispatches/${dispatchId}`)
    expect(one.status).toBe(200)
    expect(one.body).not.toHaveProperty('data')
    const list = await api.getAll<DispatchIdSchema>('/dispatch/dispatches', 'dispatches')
    expect(list.items.find((d) => d.id === dispatchId)?.data).toEqual(one.body)
  })

  it('PUT dispatch changes only the given fields and bumps updated', async () => {
    const before = (await api.get<DispatchSchema>(`/dispatch/dispatches/${dispatchId}`)).body
    const put = await api.put(`/dispatch/dispatches/${dispatchId}`, {
      registrationCap: 77,
      notes: 'raised cap',
      enabled: null,
      expirationDate: '2031-05-01T00:00:00.000Z',
    })
    expect(put.status).toBe(204)
    const after = (await api.get<DispatchSchema>(`/dispatch/dispatches/${dispatchId}`)).body
    expect(after).toEqual({
      ...before,
      registrationCap: 77,
      notes: 'raised cap',
      expirationDate: '2031-05-01T00:00:00.000Z',
      updated: after.updated,
    })
    expect(Date.parse(after.updated ?? '')).toBeGreaterThan(Date.parse(before.updated ?? ''))
    expect(after.enabled).toBe(before.enabled)

    for (const clear of ['', 'none']) {
      await api.put(`/dispatch/dispatches/${dispatchId}`, { expirationDate: '2031-05-01T00:00:00.000Z' })
      expect((await api.put(`/dispatch/dispatches/${dispatchId}`, { expirationDate: clear })).status).toBe(204)
      expect((await api.get<DispatchSchema>(`/dispatch/dispatches/${dispatchId}`)).body.expirationDate).toBeUndefined()
    }
  })

  it('rejects invalid dispatch updates with 400 and leaves the dispatch alone', async () => {
    const before = (await api.get<DispatchSchema>(`/dispatch/dispatches/${dispatchId}`)).body
    for (const body of [{ registrationCap: -1 }, { enabled: 'yes' }, { expirationDate: 'soon' }, [1, 2]]) {
      const res = await api.put(`/dispatch/dispatches/${dispatchId}`, body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body).toHaveProperty('message')
    }
    const bad = await fetch(`${sim.url}/dispatch/dispatches/${dispatchId}`, {
      method: 'PUT',
      headers: { Authorization: sim.authorization, 'Content-Type': 'application/json' },
      body: '{not json',
    })
    expect(bad.status).toBe(400)
    expect((await api.get<DispatchSchema>(`/dispatch/dispatches/${dispatchId}`)).body).toEqual(before)
    expect((await api.put('/dispatch/dispatches/nope', { enabled: true })).status).toBe(404)
  })

  it('reads and switches the enabled flag', async () => {
    const put = await api.put(`/dispatch/dispatches/${dispatchId}/enabled`, { enabled: false })
    expect(put.status).toBe(204)
    expect((await api.get(`/dispatch/dispatches/${dispatchId}/enabled`)).body).toEqual({ enabled: false })
    expect((await api.get<DispatchSchema>(`/dispatch/dispatches/${dispatchId}`)).body.enabled).toBe(false)
    await api.put(`/dispatch/dispatches/${dispatchId}/enabled`, { enabled: true })
    expect((await api.get(`/dispatch/dispatches/${dispatchId}/enabled`)).body).toEqual({ enabled: true })
    expect((await api.put(`/dispatch/dispatches/${dispatchId}/enabled`, {})).status).toBe(400)
  })

  it('adds, lists and removes dispatch tags', async () => {
    const start = (await api.get<{ tags: string[] }>(`/dispatch/dispatches/${dispatchId}/tags`)).body.tags
    expect((await api.put(`/dispatch/dispatches/${dispatchId}/tags`, { tags: ['vip', 'q3'] })).status).toBe(204)
    const added = (await api.get<{ tags: string[] }>(`/dispatch/dispatches/${dispatchId}/tags`)).body.tags
    expect([...added].sort()).toEqual([...new Set([...start, 'vip', 'q3'])].sort())
    expect((await api.del(`/dispatch/dispatches/${dispatchId}/tags`, { tags: ['vip', 'not-there'] })).status).toBe(204)
    const left = (await api.get<{ tags: string[] }>(`/dispatch/dispatches/${dispatchId}/tags`)).body.tags
    expect(left).toContain('q3')
    expect(left).not.toContain('vip')
    expect((await api.get<DispatchSchema>(`/dispatch/dispatches/${dispatchId}`)).body.tags).toEqual(left)
  })

  it('returns the registration counter of a dispatch', async () => {
    const res = await api.get<{ registrationCount: number }>(`/dispatch/dispatches/${dispatchId}/registrationCount`)
    expect(res.status).toBe(200)
    expect(res.body.registrationCount).toBe(sim.data.getDispatch(dispatchId)?.registrationCount)
  })

  it('creates and updates destinations through PUT', async () => {
    expect((await api.put('/dispatch/destinations/new-client', { tags: ['x'] })).status).toBe(400)
    expect(
      (await api.put('/dispatch/destinations/new-client', { name: 'New Client Ltd', tags: ['pilot'] })).status,
    ).toBe(204)
    const created = (
      await api.get<DestinationInfoSchema>('/dispatch/destinations/new-client?includeDispatchCount=true')
    ).body
    expect(created).toMatchObject({ name: 'New Client Ltd', tags: ['pilot'], dispatchCount: 0 })
    expect((await api.put('/dispatch/destinations/new-client', { notes: 'signed' })).status).toBe(204)
    const updated = (await api.get<DestinationInfoSchema>('/dispatch/destinations/new-client')).body
    expect(updated).toMatchObject({ name: 'New Client Ltd', notes: 'signed' })
    expect(Date.parse(updated.updated ?? '')).toBeGreaterThan(Date.parse(created.updated ?? ''))
    const list = await api.getAll<{ id: string }>('/dispatch/destinations', 'destinations')
    expect(list.items.map((d) => d.id)).toContain('new-client')
  })

  it('stores application postback settings', async () => {
    const post = await api.request('POST', '/appManagement/configuration', {
      settings: [
        { settingId: 'ApiRollupRegistrationPostBackUrl', value: 'https://portal.example/postback', explicit: true },
      ],
    })
    expect(post.status).toBe(204)
    const read = await api.get<{ settingItems: Array<{ id: string; effectiveValue: string }> }>(
      '/appManagement/configuration',
    )
    expect(read.body.settingItems).toContainEqual(
      expect.objectContaining({
        id: 'ApiRollupRegistrationPostBackUrl',
        effectiveValue: 'https://portal.example/postback',
      }),
    )
    expect((await api.del('/appManagement/configuration/ApiRollupRegistrationPostBackUrl')).status).toBe(204)
    expect((await api.get<{ settingItems: unknown[] }>('/appManagement/configuration')).body.settingItems).toEqual([])
  })

  it('test helpers change data like upstream edits and count requests', async () => {
    sim.resetStats()
    const before = sim.data.getDispatch(dispatchId) as DispatchSchema
    const touched = sim.touchDispatch(dispatchId, { notes: 'from test' })
    expect(touched.notes).toBe('from test')
    expect(Date.parse(touched.updated ?? '')).toBeGreaterThan(Date.parse(before.updated ?? ''))
    const count = before.registrationCount ?? 0
    const reg = sim.addRegistration(dispatchId)
    expect(reg.dispatchId).toBe(dispatchId)
    expect(reg.course?.id).toBe(before.courseId)
    expect(sim.data.getDispatch(dispatchId)?.registrationCount).toBe(count + 1)
    expect(sim.data.listRegistrationIds(dispatchId)).toContain(reg.id)
    expect((await api.get(`/registrations/${reg.id}`)).body).toEqual(reg)

    expect(sim.removeDispatch(dispatchId)).toBe(true)
    expect((await api.get(`/dispatch/dispatches/${dispatchId}`)).status).toBe(404)
    expect((await api.get(`/dispatch/dispatches/${dispatchId}`)).status).toBe(404)
    const list = await api.getAll<DispatchIdSchema>('/dispatch/dispatches', 'dispatches')
    expect(list.items.map((d) => d.id)).not.toContain(dispatchId)
    const stats = sim.stats()
    expect(stats.byPath[`GET /dispatch/dispatches/${dispatchId}`]).toBe(2)
    expect(stats.byRoute['GET /registrations/{registrationId}']).toBe(1)
    expect(stats.byStatus['404']).toBe(2)
  })
})
