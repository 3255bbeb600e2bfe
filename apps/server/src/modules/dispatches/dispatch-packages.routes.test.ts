import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { inspectDestinationPackage, inspectPackage } from '@portal/scorm-cloud-sim/package-inspect'
import { strFromU8, unzipSync } from 'fflate'
import { LEFT_OUT_FILE } from './company-packages-zip'
import { providerApp, type ProviderApp } from './dispatch-actions.test-support'
import { appParts } from '../../app'

let f: ProviderApp
let base: string
beforeAll(async () => {
  f = await providerApp()
  // The own dispatch open for clients (generated data may hold any state).
  f.sim.touchDispatch(f.ownDispatchId, { enabled: true, expirationDate: 'none' })
  await appParts(f.t.app).sync!.run({ trigger: 'manual' })
  base = await f.t.app.listen({ port: 0, host: '127.0.0.1' })
})
afterAll(async () => f.close())
beforeEach(() => {
  f.sim.clearFaults()
  f.sim.setPackagePadding(0)
})

const get = (url: string, headers = f.admin) => f.t.app.inject({ method: 'GET', url, headers })
const providerZip = async (path: string) => {
  const res = await fetch(`${f.sim.url}${path}`, { headers: { Authorization: f.sim.authorization } })
  return Buffer.from(await res.arrayBuffer())
}

describe('GET /api/dispatches/:id/package', () => {
  it("streams the provider's zip unchanged, named <company> - <course>.zip, with its length", async () => {
    const d = f.sim.data.getDispatch(f.ownDispatchId)!
    const logged = (await f.activity('DISPATCH_PACKAGE_DOWNLOADED')).length
    const res = await get(`/api/dispatches/${f.ownDispatchId}/package`)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.headers['content-type']).toBe('application/zip')
    const name = `${d.destinationName} - ${d.courseTitle}.zip`.replace(/[^A-Za-z0-9 ._()-]+/g, ' ').replace(/\s+/g, ' ')
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${name}"`)
    const provider = await providerZip(`/dispatch/dispatches/${f.ownDispatchId}/zip`)
    expect(res.rawPayload.equals(provider)).toBe(true)
    expect(res.headers['content-length']).toBe(String(provider.length))
    const pkg = inspectPackage(res.rawPayload)
    expect(pkg.manifest).toMatchObject({ schemaVersion: '1.2', organizations: 1, scos: 1 })
    expect(pkg.launchPage).toContain(`/dispatch/launch/${encodeURIComponent(f.ownDispatchId)}`)
    const log = await f.activity('DISPATCH_PACKAGE_DOWNLOADED')
    expect(log).toHaveLength(logged + 1)
    expect(log[0]!.details).toMatchObject({
      dispatchId: f.ownDispatchId,
      companyId: f.companyId,
      bytes: provider.length,
    })
  })

  it("lets a client download its own company's package, and answers 404 for another company's", async () => {
    const own = await get(`/api/dispatches/${f.ownDispatchId}/package`, f.client)
    expect(own.statusCode).toBe(200)
    expect(inspectPackage(own.rawPayload).manifest.scos).toBe(1)
    const foreign = await get(`/api/dispatches/${f.foreignDispatchId}/package`, f.client)
    expect(foreign.statusCode).toBe(404)
    expect(foreign.headers['content-type']).toMatch(/json/)
    expect((await get('/api/dispatches/no-such-dispatch/package')).statusCode).toBe(404)
  })

  it('refuses a disabled or expired dispatch to clients with a clear message; staff may still download it', async () => {
    try {
      f.sim.touchDispatch(f.ownDispatchId, { enabled: false })
      await appParts(f.t.app).sync!.run({ trigger: 'manual' })
      const disabled = await get(`/api/dispatches/${f.ownDispatchId}/package`, f.client)
      expect(disabled.statusCode).toBe(403)
      expect(disabled.json().message).toBe('This dispatch is disabled. Contact your account manager.')
      for (const role of ['admin', 'internal', 'sales'] as const) {
        const headers = role === 'admin' ? f.admin : (await f.t.loginAs(role)).headers
        expect((await get(`/api/dispatches/${f.ownDispatchId}/package`, headers)).statusCode, role).toBe(200)
      }
      f.sim.touchDispatch(f.ownDispatchId, { enabled: true, expirationDate: '2020-01-01T00:00:00.000Z' })
      await appParts(f.t.app).sync!.run({ trigger: 'manual' })
      const expired = await get(`/api/dispatches/${f.ownDispatchId}/package`, f.client)
      expect(expired.statusCode).toBe(403)
      expect(expired.json().message).toBe('This dispatch has expired. Contact your account manager.')
    } finally {
      f.sim.touchDispatch(f.ownDispatchId, { enabled: true, expirationDate: 'none' })
      await appParts(f.t.app).sync!.run({ trigger: 'manual' })
    }
  })

  it('answers 502 with the reason when the provider fails, and when it does not answer in time', async () => {
    f.sim.setFaults({ errorRate: 1, errorStatuses: [500], onlyPaths: [`/dispatch/dispatches/${f.ownDispatchId}/zip`] })
    const failed = await get(`/api/dispatches/${f.ownDispatchId}/package`)
    expect(failed.statusCode).toBe(502)
    expect(failed.json()).toMatchObject({ code: 'UPSTREAM_FAILED', message: expect.stringMatching(/^SCORM Cloud/) })
    f.sim.setFaults({ errorRate: 0, stallRate: 1, stallMs: 5_000 })
    const late = await get(`/api/dispatches/${f.ownDispatchId}/package`)
    expect(late.statusCode).toBe(502)
    expect(late.json().message).toBe('SCORM Cloud did not answer in time.')
  })

  it('aborts the upstream download when the browser goes away', async () => {
    f.sim.setPackagePadding(20_000_000)
    f.sim.resetStats()
    const controller = new AbortController()
    const res = await fetch(`${base}/api/dispatches/${f.ownDispatchId}/package`, {
      headers: f.admin,
      signal: controller.signal,
    })
    expect(res.status).toBe(200)
    const reader = res.body!.getReader()
    let received = 0
    while (received < 1_000_000) received += (await reader.read()).value!.length
    controller.abort()
    await expect.poll(() => f.sim.stats().streamsAborted, { timeout: 5_000 }).toBe(1)
    expect(received).toBeLessThan(20_000_000)
  })
})

describe('GET /api/dispatches/packages', () => {
  it("gives a client all its company's packages in one zip, one inner package per dispatch", async () => {
    const ownIds = f.sim.data
      .listDispatchIds()
      .filter((id) => f.sim.data.getDispatch(id)!.destinationId === f.companyId)
    for (const id of ownIds) f.sim.touchDispatch(id, { enabled: true, expirationDate: 'none' })
    await appParts(f.t.app).sync!.run({ trigger: 'manual' })
    const res = await get('/api/dispatches/packages', f.client)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.headers['content-disposition']).toContain(' - all packages.zip"')
    const inner = inspectDestinationPackage(res.rawPayload)
    expect(Object.keys(inner)).toHaveLength(ownIds.length)
    expect(res.rawPayload.equals(await providerZip(`/dispatch/destinations/${f.companyId}/dispatches/zip`))).toBe(true)
    expect((await f.activity('DISPATCH_PACKAGE_DOWNLOADED'))[0]!.details).toMatchObject({
      allPackages: true,
      companyId: f.companyId,
    })
  })

  it("answers 404 to a client asking for another company's packages", async () => {
    const other = f.sim.data.getDispatch(f.foreignDispatchId)!.destinationId!
    expect((await get(`/api/dispatches/packages?companyId=${other}`, f.client)).statusCode).toBe(404)
    expect((await get(`/api/dispatches/packages?companyId=${f.companyId}`, f.client)).statusCode).toBe(200)
  })

  it('leaves a disabled or expired dispatch out of the zip and names it in a text file inside', async () => {
    const ownIds = f.sim.data
      .listDispatchIds()
      .filter((id) => f.sim.data.getDispatch(id)!.destinationId === f.companyId)
    const expiredId = ownIds.find((id) => id !== f.ownDispatchId)
    try {
      f.sim.touchDispatch(f.ownDispatchId, { enabled: false })
      if (expiredId) f.sim.touchDispatch(expiredId, { enabled: true, expirationDate: '2020-01-01T00:00:00Z' })
      await appParts(f.t.app).sync!.run({ trigger: 'manual' })
      for (const headers of [f.client, f.admin]) {
        const res = await get(`/api/dispatches/packages?companyId=${f.companyId}`, headers)
        expect(res.statusCode, res.body).toBe(200)
        const files = unzipSync(res.rawPayload)
        const note = strFromU8(files[LEFT_OUT_FILE]!)
        const disabledTitle = f.sim.data.getDispatch(f.ownDispatchId)!.courseTitle!
        expect(note).toContain(`- ${disabledTitle} (disabled; dispatch ${f.ownDispatchId})`)
        if (expiredId) expect(note).toContain(`(expired; dispatch ${expiredId})`)
        const packages = Object.keys(files).filter((name) => name !== LEFT_OUT_FILE)
        expect(packages).toHaveLength(ownIds.length - (expiredId ? 2 : 1))
        expect(packages.some((name) => name.includes(f.ownDispatchId))).toBe(false)
        for (const name of packages) expect(inspectPackage(files[name]!).manifest).toBeTruthy()
      }
      expect((await f.activity('DISPATCH_PACKAGE_DOWNLOADED'))[0]!.details).toMatchObject({
        allPackages: true,
        leftOut: expect.arrayContaining([f.ownDispatchId]),
      })
    } finally {
      f.sim.touchDispatch(f.ownDispatchId, { enabled: true })
      if (expiredId) f.sim.touchDispatch(expiredId, { expirationDate: 'none' })
      await appParts(f.t.app).sync!.run({ trigger: 'manual' })
    }
  })

  it('lets staff download any company, which they must name', async () => {
    const other = f.sim.data.getDispatch(f.foreignDispatchId)!.destinationId!
    const res = await get(`/api/dispatches/packages?companyId=${other}`)
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="${f.sim.data.getDestination(other)!.name!.replace(/[^A-Za-z0-9 ._()-]+/g, ' ')} - all packages.zip"`,
    )
    const sales = (await f.t.loginAs('sales')).headers
    expect((await get(`/api/dispatches/packages?companyId=${other}`, sales)).statusCode).toBe(200)
    const missing = await get('/api/dispatches/packages')
    expect(missing.statusCode).toBe(400)
    expect(missing.json().details).toEqual([{ field: 'companyId', message: expect.any(String) }])
    expect((await get('/api/dispatches/packages?companyId=no-such-company')).statusCode).toBe(404)
    expect((await get(`/api/dispatches/packages?companyId=${'x'.repeat(201)}`)).statusCode).toBe(400)
  })

  it('needs a signed-in user', async () => {
    expect((await f.t.app.inject({ method: 'GET', url: '/api/dispatches/packages' })).statusCode).toBe(401)
    expect(
      (await f.t.app.inject({ method: 'GET', url: `/api/dispatches/${f.ownDispatchId}/package` })).statusCode,
    ).toBe(401)
  })
})
