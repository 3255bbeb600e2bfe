import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulator, type Simulator } from './simulator'
import { testClient, type TestClient } from './test-support'
import type {
  DestinationInfoSchema,
  DispatchLti13InfoSchema,
  DispatchLtiInfoSchema,
  DispatchSchema,
  Lti13ToolConfigurationSchema,
  RegistrationSchema,
} from '@portal/server/scorm-cloud-types'

describe('delivery settings and LTI', () => {
  let sim: Simulator
  let api: TestClient
  let dispatchId: string
  let destinationId: string

  beforeAll(async () => {
    sim = await startSimulator({ seed: 11 })
    api = testClient(sim)
    dispatchId = sim.data.listDispatchIds()[3] as string
    destinationId = sim.data.getDispatch(dispatchId)?.destinationId as string
  })
  afterAll(() => sim.close())

  it('stores launchAuth on the destination and refuses an unknown type or a negative expiry', async () => {
    const launchAuth = {
      type: 'vault',
      options: { ipAddress: true, fingerprint: false, expiry: 3600, slidingExpiry: 600 },
    }
    expect((await api.request('PUT', `/dispatch/destinations/${destinationId}`, { launchAuth })).status).toBe(204)
    const read = await api.get<DestinationInfoSchema>(`/dispatch/destinations/${destinationId}`)
    expect(read.body.launchAuth).toEqual(launchAuth)

    const unknown = await api.request('PUT', `/dispatch/destinations/${destinationId}`, {
      launchAuth: { type: 'magic' },
    })
    expect(unknown.status).toBe(400)
    expect(unknown.body).toEqual({ message: 'launchAuth.type must be one of cookies, vault' })
    const negative = await api.request('PUT', `/dispatch/destinations/${destinationId}`, {
      launchAuth: { type: 'cookies', options: { expiry: -1 } },
    })
    expect(negative.status).toBe(400)
    expect((await api.get<DestinationInfoSchema>(`/dispatch/destinations/${destinationId}`)).body.launchAuth).toEqual(
      launchAuth,
    )
  })

  it('switches hashUserInfo per destination and per dispatch, the dispatch inheriting until set', async () => {
    const destPath = `/dispatch/destinations/${destinationId}/dispatches/hashUserInfo`
    const dispPath = `/dispatch/dispatches/${dispatchId}/hashUserInfo`
    expect((await api.get(destPath)).body).toEqual({ enabled: false })
    expect((await api.request('PUT', destPath, { enabled: true })).status).toBe(204)
    expect((await api.get(destPath)).body).toEqual({ enabled: true })
    expect((await api.get(dispPath)).body).toEqual({ enabled: true })
    expect((await api.request('PUT', dispPath, { enabled: false })).status).toBe(204)
    expect((await api.get(dispPath)).body).toEqual({ enabled: false })
    expect((await api.request('PUT', dispPath, {})).status).toBe(400)
    expect((await api.get('/dispatch/dispatches/nope/hashUserInfo')).status).toBe(404)
  })

  it('hashes learner names and e-mails with hashUserInfo on (stable SHA-256 hex), the learner id kept', async () => {
    const dispPath = `/dispatch/dispatches/${dispatchId}/hashUserInfo`
    const sha256 = (value: string) => createHash('sha256').update(value).digest('hex')
    const reg = sim.addRegistration(dispatchId)
    expect((await api.request('PUT', dispPath, { enabled: false })).status).toBe(204)
    const plain = (await api.get<RegistrationSchema>(`/registrations/${reg.id}`)).body.learner!
    expect(plain.lastName).not.toMatch(/^[0-9a-f]{64}$/)

    expect((await api.request('PUT', dispPath, { enabled: true })).status).toBe(204)
    const hashed = (await api.get<RegistrationSchema>(`/registrations/${reg.id}`)).body.learner!
    expect(hashed.id).toBe(plain.id)
    expect(hashed.lastName).toBe(sha256(plain.lastName!))
    expect(hashed.firstName).toBe(plain.firstName ? sha256(plain.firstName) : '')
    expect(hashed.email).toBe(plain.email === undefined ? undefined : sha256(plain.email))
    // Stable: the same learner hashes the same on every read.
    expect((await api.get<RegistrationSchema>(`/registrations/${reg.id}`)).body.learner).toEqual(hashed)

    expect((await api.request('PUT', dispPath, { enabled: false })).status).toBe(204)
    expect((await api.get<RegistrationSchema>(`/registrations/${reg.id}`)).body.learner).toEqual(plain)
  })

  it("turns instancing on or off for all of a destination's dispatches", async () => {
    const path = `/dispatch/destinations/${destinationId}/dispatches/registrationInstancing`
    expect((await api.request('POST', path, { enabled: false })).status).toBe(204)
    expect((await api.get<DispatchSchema>(`/dispatch/dispatches/${dispatchId}`)).body.instanced).toBe(false)
    expect((await api.request('POST', path, { enabled: true })).status).toBe(204)
    expect((await api.get<DispatchSchema>(`/dispatch/dispatches/${dispatchId}`)).body.instanced).toBe(true)
    expect((await api.request('POST', path, { enabled: 'yes' })).status).toBe(400)
  })

  it('makes a new registration for a relaunch while instancing is on, and none while it is off', async () => {
    const first = sim.addRegistration(dispatchId)
    sim.touchDispatch(dispatchId, { instanced: true })
    const before = sim.data.getDispatch(dispatchId)?.registrationCount ?? 0
    const again = sim.relaunch(first.id)
    expect(again.created).toBe(true)
    expect(again.registration.id).not.toBe(first.id)
    expect(again.registration.learner?.id).toBe(first.learner?.id)
    expect(sim.data.getDispatch(dispatchId)?.registrationCount).toBe(before + 1)

    sim.touchDispatch(dispatchId, { instanced: false })
    const reused = sim.relaunch(first.id)
    expect(reused.created).toBe(false)
    expect(reused.registration.id).toBe(first.id)
    expect(sim.data.getDispatch(dispatchId)?.registrationCount).toBe(before + 1)
  })

  it('gives LTI 1.1 launch data, the LTI 1.3 resource link and the tool configuration', async () => {
    const lti = await api.get<DispatchLtiInfoSchema>(`/dispatch/dispatches/${dispatchId}/lti`)
    expect(lti.status).toBe(200)
    expect(Object.keys(lti.body).sort()).toEqual(['consumerKey', 'sharedSecret', 'url'])
    expect(lti.body.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/lti\/launch\//)
    // The same secret on every read.
    expect((await api.get<DispatchLtiInfoSchema>(`/dispatch/dispatches/${dispatchId}/lti`)).body).toEqual(lti.body)

    const link = await api.get<DispatchLti13InfoSchema>(`/dispatch/dispatches/${dispatchId}/lti13`)
    expect(Object.keys(link.body)).toEqual(['targetLinkUri'])
    const tool = await api.get<Lti13ToolConfigurationSchema>(`/dispatch/destinations/${destinationId}/lti13`)
    expect(Object.keys(tool.body).sort()).toEqual([
      'jsonWebKeySetUrl',
      'oidcLoginInitiationsUrl',
      'publicKey',
      'redirectUri',
    ])
    expect((await api.get('/dispatch/dispatches/nope/lti')).status).toBe(404)
  })
})

describe('live relaunches', () => {
  it('over-counts while instancing is on and stops once it is off', async () => {
    const sim = await startSimulator({
      seed: 12,
      sizes: { courses: 2, destinations: 1, dispatches: 2, registrations: 40, bigDispatchRegistrations: 0 },
      live: { intervalMs: 0, batchSize: 20, newRegistrationRate: 0, relaunchRate: 1 },
    })
    try {
      const ids = sim.data.listDispatchIds()
      for (const id of ids)
        sim.touchDispatch(id, { instanced: true, enabled: true, registrationCap: 0, expirationDate: 'none' })
      const total = () => ids.reduce((n, id) => n + sim.data.listRegistrationIds(id).length, 0)
      const before = total()
      sim.liveTick()
      const afterOn = total()
      expect(afterOn).toBeGreaterThan(before)
      for (const id of ids) sim.touchDispatch(id, { instanced: false })
      sim.liveTick()
      expect(total()).toBe(afterOn)
    } finally {
      await sim.close()
    }
  })
})
