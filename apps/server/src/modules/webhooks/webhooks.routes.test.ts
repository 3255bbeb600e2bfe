import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { asc, eq } from 'drizzle-orm'
import type { Simulator } from '@portal/scorm-cloud-sim'
import type { RegistrationSchema } from '../scorm-cloud/scorm-cloud.types'
import { registration } from '../../db/schema'
import { buildTestApp, testConfig, type TestContext } from '../../test/helpers'
import { mapRegistration } from '../sync/sync.mapper'
import { startTestSimulator } from '../sync/sync.test-support'
import { appParts } from '../../app'

const URL_PATH = '/api/webhooks/scorm-cloud/registrations'
const USER = 'scorm-cloud'
const PASSWORD = 'postback-secret'
const basic = (user = USER, password = PASSWORD) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`

let sim: Simulator
let t: TestContext
beforeAll(async () => {
  sim = await startTestSimulator()
  t = await buildTestApp({
    config: testConfig({
      scormCloud: { baseUrl: sim.url, appId: sim.appId, secretKey: sim.secretKey },
      postbackUser: USER,
      postbackPassword: PASSWORD,
    }),
  })
  // The postbacks belong to mirrored dispatches.
  expect((await appParts(t.app).sync!.run({ trigger: 'startup' })).ok).toBe(true)
})
afterAll(async () => {
  await t.close()
  await sim.close()
})

const postJson = (body: unknown, authorization: string | null = basic()) =>
  t.app.inject({
    method: 'POST',
    url: URL_PATH,
    headers: { 'content-type': 'application/json; charset=UTF-8', ...(authorization ? { authorization } : {}) },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  })
const postForm = (fields: Record<string, string>) =>
  t.app.inject({
    method: 'POST',
    url: URL_PATH,
    headers: { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' },
    payload: new URLSearchParams(fields).toString(),
  })
const rowOf = async (id: string) => (await t.database.db.select().from(registration).where(eq(registration.id, id)))[0]
const allRows = () => t.database.db.select().from(registration).orderBy(asc(registration.id))
/** What the mirror should hold for a provider registration. */
const expected = (r: RegistrationSchema) => {
  const { courseId: _c, ...row } = mapRegistration(r) as Exclude<ReturnType<typeof mapRegistration>, null | 'ignore'>
  return row
}

describe('POST /api/webhooks/scorm-cloud/registrations', () => {
  it('changes a registration once and keeps the newest state when sent five times out of order', async () => {
    const id = sim.data.registrationAt(3)!.id
    const v1 = sim.touchRegistration(id, { registrationCompletion: 'INCOMPLETE', totalSecondsTracked: 100 })
    const v2 = sim.touchRegistration(id, { totalSecondsTracked: 200, score: 40 })
    const v3 = sim.touchRegistration(id, { registrationCompletion: 'COMPLETED', score: 90, totalSecondsTracked: 300 })
    const messages: string[] = []
    for (const version of [v3, v1, v3, v2, v3]) {
      const res = await postJson(version)
      expect(res.statusCode).toBe(200)
      expect(res.headers.location).toBeUndefined()
      messages.push(res.json().message)
    }
    expect(messages.filter((m) => m === 'Registration updated.')).toHaveLength(1)
    expect(messages[0]).toBe('Registration updated.')
    expect(await rowOf(id)).toMatchObject(expected(v3))
  })

  it('accepts the form delivery (data field, credentials as fields)', async () => {
    const id = sim.data.registrationAt(4)!.id
    const v = sim.touchRegistration(id, { registrationCompletion: 'COMPLETED', registrationSuccess: 'PASSED' })
    const res = await postForm({ data: JSON.stringify(v), userName: USER, password: PASSWORD })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ message: 'Registration updated.' })
    expect(await rowOf(id)).toMatchObject(expected(v))
  })

  it('stores a registration it has not seen, and ignores those it cannot place, saying why', async () => {
    const fresh = sim.addRegistration(sim.data.listDispatchIds()[2]!)
    expect((await postJson(fresh)).json()).toEqual({ message: 'Registration stored.' })
    expect(await rowOf(fresh.id)).toMatchObject(expected(fresh))

    const { dispatchId: _d, ...noDispatch } = { ...fresh, id: 'api-made' }
    const ignored = await postJson(noDispatch)
    expect(ignored.statusCode).toBe(200)
    expect(ignored.json().message).toMatch(/no dispatchId/)
    const unknown = await postJson({ ...fresh, id: 'elsewhere', dispatchId: 'not-mirrored' })
    expect(unknown.statusCode).toBe(200)
    expect(unknown.json().message).toMatch(/dispatch not-mirrored is not in the mirror/)
    expect(await rowOf('api-made')).toBeUndefined()
    expect(await rowOf('elsewhere')).toBeUndefined()
  })

  it('answers 401 to wrong or missing credentials and changes nothing', async () => {
    const id = sim.data.registrationAt(6)!.id
    const v = sim.touchRegistration(id, { registrationCompletion: 'COMPLETED' })
    const before = await allRows()
    for (const [i, res] of [
      await postJson(v, basic(USER, 'wrong')),
      await postJson(v, basic('someone', PASSWORD)),
      await postJson(v, 'Bearer abc'),
      await postJson(v, null),
      await postForm({ data: JSON.stringify(v), userName: USER, password: 'wrong' }),
      await postForm({ data: JSON.stringify(v) }),
    ].entries()) {
      expect(res.statusCode, `${i} ${res.body}`).toBe(401)
      expect(res.json()).toMatchObject({ code: 'UNAUTHENTICATED' })
    }
    expect(await allRows()).toEqual(before)
  })

  it('answers 400 to malformed input and changes nothing', async () => {
    const v = sim.touchRegistration(sim.data.registrationAt(7)!.id, { registrationCompletion: 'COMPLETED' })
    const before = await allRows()
    for (const res of [
      await postJson('{"id": "x", oops'),
      await postJson(''),
      await postJson({ ...v, id: undefined }),
      await postJson({ ...v, id: '' }),
      await postJson([v]),
      await postJson({ ...v, instance: 'third' }),
      await postJson({ ...v, score: { scaled: 'high' } }),
      await postJson({ ...v, learner: 'Bob' }),
      await postJson({ ...v, updated: 'yesterday' }),
      await postForm({ userName: USER, password: PASSWORD }),
      await postForm({ data: '{not json', userName: USER, password: PASSWORD }),
    ]) {
      expect(res.statusCode, res.body).toBe(400)
      expect(typeof res.json().message).toBe('string')
    }
    expect(await allRows()).toEqual(before)
  })

  it('answers 400 naming the field to values the mirror cannot hold, so SCORM Cloud stops retrying', async () => {
    const v = sim.touchRegistration(sim.data.registrationAt(8)!.id, { registrationCompletion: 'COMPLETED' })
    const before = await allRows()
    const cases: [string, string][] = [
      [JSON.stringify({ ...v, instance: 2147483648 }), 'instance'],
      [JSON.stringify({ ...v, updated: '0000-01-01T00:00:00Z' }), 'updated'],
      [JSON.stringify({ ...v, lastAccessDate: '+275760-09-13T00:00:00Z' }), 'lastAccessDate'],
      [JSON.stringify({ ...v, completedDate: '9999-12-31T23:59:59-05:00' }), 'completedDate'],
      [JSON.stringify({ ...v, createdDate: '-000001-01-01T00:00:00Z' }), 'createdDate'],
      [JSON.stringify({ ...v, firstAccessDate: '2026-02-31T00:00:00Z' }), 'firstAccessDate'],
      [JSON.stringify({ ...v, id: ' ' }), 'id'],
      [JSON.stringify({ ...v, id: 'reg\ud800' }), 'id'], // written as the escape \ud800: a lone surrogate once parsed
      [JSON.stringify({ ...v, score: { scaled: 0 } }).replace('"scaled":0', '"scaled":1e999'), 'score/scaled'],
      [JSON.stringify({ ...v, totalSecondsTracked: 1e300 }), 'totalSecondsTracked'],
    ]
    for (const [body, field] of cases) {
      const res = await postJson(body)
      expect(res.statusCode, body).toBe(400)
      expect(
        res.json().details?.map((d: { field: string }) => d.field),
        body,
      ).toContain(field)
    }
    expect(await allRows()).toEqual(before)
    // The bounds themselves are fine (on a registration of its own: a newer state would stay).
    const edge = await postJson({
      ...v,
      id: 'edge-of-range',
      instance: 2147483647,
      updated: '9999-12-31T23:59:59.999Z',
    })
    expect(edge.statusCode, edge.body).toBe(200)
    expect((await rowOf('edge-of-range'))!.providerUpdated?.toISOString()).toBe('9999-12-31T23:59:59.999Z')
  })

  it('receives the postbacks SCORM Cloud sends, in both delivery formats', async () => {
    const url = await t.app.listen({ port: 0, host: '127.0.0.1' })
    const configure = (settings: Record<string, string>) =>
      fetch(`${sim.url}/appManagement/configuration`, {
        method: 'POST',
        headers: { authorization: sim.authorization, 'content-type': 'application/json' },
        body: JSON.stringify({
          settings: Object.entries(settings).map(([settingId, value]) => ({ settingId, value })),
        }),
      })
    for (const authType of ['httpbasic', 'form']) {
      const res = await configure({
        ApiRollupRegistrationPostBackUrl: `${url}${URL_PATH}`,
        ApiRollupRegistrationAuthType: authType,
        ApiRollupRegistrationAuthUser: USER,
        ApiRollupRegistrationAuthPassword: PASSWORD,
      })
      expect(res.status).toBe(204)
      const id = sim.data.registrationAt(authType === 'form' ? 9 : 8)!.id
      const v = sim.touchRegistration(id, { registrationCompletion: 'COMPLETED', score: 77 })
      await sim.postbacksIdle()
      expect(await rowOf(id), authType).toMatchObject(expected(v))
    }
    expect(sim.stats().postbacks).toMatchObject({ delivered: 2, failedAttempts: 0 })
  })
})
