import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { DELIVERY_MESSAGES as M, LAUNCH_AUTH_EXPIRY_MAX } from '@portal/shared'
import { company } from '../../db/schema'
import { appParts } from '../../app'
import { providerApp, type Headers, type ProviderApp } from '../dispatches/dispatch-actions.test-support'

let f: ProviderApp
let sales: Headers
let internal: Headers

beforeAll(async () => {
  f = await providerApp()
  sales = (await f.t.loginAs('sales')).headers
  internal = (await f.t.loginAs('internal')).headers
})
afterAll(() => f.close())
beforeEach(() => f.sim.clearFaults())

const inject = (method: 'GET' | 'PUT' | 'POST', url: string, headers: Headers, payload?: Record<string, unknown>) =>
  f.t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) })
const companyRow = async () => (await f.t.database.db.select().from(company).where(eq(company.id, f.companyId)))[0]!

describe('company delivery settings', () => {
  it('writes launch authentication through to SCORM Cloud, mirrors what it reads back, and logs it', async () => {
    const before = (await f.activity('DELIVERY_SETTINGS_UPDATED')).length
    const res = await inject('PUT', `/api/companies/${f.companyId}/delivery`, f.admin, {
      launchAuth: { type: 'vault', ipAddress: true, fingerprint: true, expiry: 7200, slidingExpiry: 900 },
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().launchAuth).toEqual({
      type: 'vault',
      ipAddress: true,
      fingerprint: true,
      expiry: 7200,
      slidingExpiry: 900,
    })
    expect(f.sim.data.getDestination(f.companyId)!.launchAuth).toEqual({
      type: 'vault',
      options: { ipAddress: true, fingerprint: true, expiry: 7200, slidingExpiry: 900 },
    })
    expect((await companyRow()).launchAuthType).toBe('vault')
    const logged = await f.activity('DELIVERY_SETTINGS_UPDATED')
    expect(logged.length).toBe(before + 1)
    expect(logged[0]!.details).toMatchObject({ companyId: f.companyId, changes: { launchAuth: { before: null } } })
  })

  it('turns instancing off for every dispatch of the company and says what it does to licence counts', async () => {
    const res = await inject('PUT', `/api/companies/${f.companyId}/delivery`, f.admin, { instanced: false })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toMatchObject({ instancing: 'off', instancedDispatches: 0 })
    expect(res.json().instancingExplanation).toMatch(/another licence/)
    expect(f.sim.data.getDispatch(f.ownDispatchId)!.instanced).toBe(false)
    expect((await f.mirrorRow(f.ownDispatchId))!.instanced).toBe(false)
    const dispatch = await inject('GET', `/api/dispatches/${f.ownDispatchId}/delivery`, f.client)
    expect(dispatch.json()).toMatchObject({ instanced: false })
  })

  it('switches learner data hashing and keeps the style sheet URL, which the package request carries', async () => {
    const res = await inject('PUT', `/api/companies/${f.companyId}/delivery`, f.admin, {
      hashUserInfo: true,
      cssUrl: 'https://cdn.example.com/acme.css',
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toMatchObject({ hashUserInfo: true, cssUrl: 'https://cdn.example.com/acme.css' })
    expect((await companyRow()).hashUserInfo).toBe(true)
    f.sim.resetStats()
    const pkg = await inject('GET', `/api/dispatches/${f.ownDispatchId}/package`, f.admin)
    expect(pkg.statusCode).toBe(200)
  })

  it('reads the launch authentication back in the sync when it changes upstream', async () => {
    f.sim.touchDestination(f.companyId, {})
    // An edit made in SCORM Cloud's console: cookies again.
    await fetch(`${f.sim.url}/dispatch/destinations/${encodeURIComponent(f.companyId)}`, {
      method: 'PUT',
      headers: { authorization: f.sim.authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ launchAuth: { type: 'cookies', options: { ipAddress: false, fingerprint: false } } }),
    })
    const run = await appParts(f.t.app).sync!.run({ trigger: 'manual' })
    expect(run.ok).toBe(true)
    expect((await companyRow()).launchAuthType).toBe('cookies')
    const read = await inject('GET', `/api/companies/${f.companyId}/delivery`, sales)
    expect(read.json().launchAuth).toMatchObject({ type: 'cookies', ipAddress: false })
  })

  it.each([
    [{ launchAuth: { type: 'magic' } }, 'body/launchAuth/type must be equal to one of the allowed values'],
    [{ launchAuth: { type: 'vault', expiry: -5 } }, 'body/launchAuth/expiry must be >= 0'],
    [
      { launchAuth: { type: 'vault', slidingExpiry: 10 ** 9 } },
      `body/launchAuth/slidingExpiry must be <= ${LAUNCH_AUTH_EXPIRY_MAX}`,
    ],
    [{ launchAuth: { type: 'vault', expiry: 1.5 } }, M.badExpiry],
    [{ cssUrl: 'javascript:alert(1)' }, M.badCssUrl],
    [{ cssUrl: 'ftp://example.com/a.css' }, M.badCssUrl],
    [{ cssUrl: 'not a url' }, M.badCssUrl],
    [{}, M.nothingToUpdate],
  ])('refuses %j with a clear message and writes nothing upstream', async (payload, message) => {
    f.sim.resetStats()
    const before = await companyRow()
    const res = await inject('PUT', `/api/companies/${f.companyId}/delivery`, f.admin, payload)
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toBe(message)
    const writes = Object.entries(f.sim.stats().byRoute).filter(([route]) => !route.startsWith('GET'))
    expect(writes).toEqual([])
    expect(await companyRow()).toEqual(before)
  })

  it('answers 502 with the reason when SCORM Cloud refuses, and changes nothing', async () => {
    const before = await companyRow()
    f.sim.setFaults({ failNext: 50, errorStatuses: [500] })
    const res = await inject('PUT', `/api/companies/${f.companyId}/delivery`, f.admin, { hashUserInfo: false })
    expect(res.statusCode).toBe(502)
    f.sim.clearFaults()
    expect(await companyRow()).toEqual(before)
  })

  it('lets a client read its own company only, and only the admin edit', async () => {
    expect((await inject('GET', `/api/companies/${f.companyId}/delivery`, f.client)).statusCode).toBe(200)
    const other = f.sim.data.getDispatch(f.foreignDispatchId)!.destinationId!
    expect((await inject('GET', `/api/companies/${other}/delivery`, f.client)).statusCode).toBe(404)
    for (const headers of [f.client, sales, internal]) {
      const res = await inject('PUT', `/api/companies/${f.companyId}/delivery`, headers, { instanced: true })
      expect(res.statusCode).toBe(403)
    }
  })
})

describe('dispatch delivery settings', () => {
  it("writes a dispatch's instancing and hashing through and keeps its own style sheet", async () => {
    const res = await inject('PUT', `/api/dispatches/${f.ownDispatchId}/delivery`, f.admin, {
      instanced: true,
      hashUserInfo: false,
      cssUrl: 'http://styles.example.com/course.css',
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toMatchObject({
      instanced: true,
      hashUserInfo: false,
      cssUrl: 'http://styles.example.com/course.css',
      effectiveCssUrl: 'http://styles.example.com/course.css',
    })
    expect(f.sim.data.getDispatch(f.ownDispatchId)!.instanced).toBe(true)
    expect((await f.mirrorRow(f.ownDispatchId))!.hashUserInfo).toBe(false)
  })

  it("answers 404 to a client asking for another company's dispatch, and 403 to a client editing its own", async () => {
    expect((await inject('GET', `/api/dispatches/${f.foreignDispatchId}/delivery`, f.client)).statusCode).toBe(404)
    expect(
      (await inject('PUT', `/api/dispatches/${f.ownDispatchId}/delivery`, f.client, { instanced: false })).statusCode,
    ).toBe(403)
  })
})

describe('LTI data', () => {
  it('gives the launch data and tool configuration to a client for its own dispatch, without the secret', async () => {
    const res = await inject('GET', `/api/dispatches/${f.ownDispatchId}/lti`, f.client)
    expect(res.statusCode, res.body).toBe(200)
    const body = res.json()
    expect(body.lti11.launchUrl).toMatch(/\/lti\/launch\//)
    expect(body.lti11.consumerKey).toBeTruthy()
    expect(body.lti11.canRevealSecret).toBe(true)
    expect(body.lti13.oidcLoginInitiationsUrl).toMatch(/^http/)
    expect(JSON.stringify(body)).not.toMatch(/sharedSecret/)
    expect((await inject('GET', `/api/dispatches/${f.foreignDispatchId}/lti`, f.client)).statusCode).toBe(404)
    expect((await inject('GET', `/api/dispatches/${f.ownDispatchId}/lti`, sales)).json().lti11.canRevealSecret).toBe(
      false,
    )
  })

  it('reveals the shared secret on demand to allowed roles, logged; refuses sales', async () => {
    const before = (await f.activity('LTI_SECRET_REVEALED')).length
    const res = await inject('POST', `/api/dispatches/${f.ownDispatchId}/lti/secret`, f.client)
    expect(res.statusCode, res.body).toBe(200)
    const upstream = await fetch(`${f.sim.url}/dispatch/dispatches/${encodeURIComponent(f.ownDispatchId)}/lti`, {
      headers: { authorization: f.sim.authorization },
    })
    expect(res.json().sharedSecret).toBe(((await upstream.json()) as { sharedSecret: string }).sharedSecret)
    const logged = await f.activity('LTI_SECRET_REVEALED')
    expect(logged.length).toBe(before + 1)
    expect(JSON.stringify(logged[0]!.details)).not.toContain(res.json().sharedSecret)

    const refused = await inject('POST', `/api/dispatches/${f.ownDispatchId}/lti/secret`, sales)
    expect(refused.statusCode).toBe(403)
    expect((await inject('POST', `/api/dispatches/${f.foreignDispatchId}/lti/secret`, f.client)).statusCode).toBe(404)
    expect((await f.activity('LTI_SECRET_REVEALED')).length).toBe(before + 1)
  })
})

describe('licence counting', () => {
  it('shows registrations against learners and names the learners a relaunch over-counted', async () => {
    f.sim.touchDispatch(f.ownDispatchId, { instanced: true, enabled: true, registrationCap: 0, expirationDate: 'none' })
    const first = f.sim.addRegistration(f.ownDispatchId)
    f.sim.touchRegistration(first.id, { registrationCompletion: 'INCOMPLETE' })
    const again = f.sim.relaunch(first.id)
    expect(again.created).toBe(true)
    expect((await appParts(f.t.app).sync!.run({ trigger: 'manual' })).ok).toBe(true)

    const res = await inject('GET', `/api/dispatches/${f.ownDispatchId}/licence-count`, f.client)
    expect(res.statusCode, res.body).toBe(200)
    const body = res.json()
    expect(body.registrations).toBeGreaterThan(body.learners)
    expect(body.extraRegistrations).toBe(body.registrations - body.learners)
    expect(body.repeatLearners).toBeGreaterThanOrEqual(1)
    expect(body.learnersShown).toContainEqual(
      expect.objectContaining({ learnerId: first.learner!.id, registrations: expect.any(Number) }),
    )
    expect((await inject('GET', `/api/dispatches/${f.foreignDispatchId}/licence-count`, f.client)).statusCode).toBe(404)

    const company = await inject('GET', `/api/companies/${f.companyId}/licence-count`, f.client)
    expect(company.statusCode, company.body).toBe(200)
    expect(company.json().registrations).toBeGreaterThanOrEqual(body.registrations)
    expect(company.json().repeatLearners).toBeGreaterThanOrEqual(1)
    expect(company.json().extraRegistrations).toBe(company.json().registrations - company.json().learners)
    const other = f.sim.data.getDispatch(f.foreignDispatchId)!.destinationId!
    expect((await inject('GET', `/api/companies/${other}/licence-count`, f.client)).statusCode).toBe(404)
  })
})
