import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import { buildTestApp, runDueJobs, type TestContext } from '../../test/helpers'
import { insertDispatches } from '../dispatches/dispatches.test-data'
import { evaluateAlerts } from './alerts-evaluate.sql'
import { rows, setDispatch } from './alerts.test-support'

/** What the SQL evaluation raises, and when it re-arms. */
let t: TestContext
const day = 24 * 60 * 60_000
const NOW = new Date('2030-06-15T10:00:00Z')
const evaluate = (dispatchIds: string[] | null = null, now = NOW) =>
  t.database.db.transaction((tx) => evaluateAlerts(tx, { now, dispatchIds }))
const kinds = (raised: { kind: string; level: number; dispatchId: string }[]) =>
  raised.map((a) => `${a.dispatchId}:${a.kind}:${a.level}`)

beforeAll(async () => {
  t = await buildTestApp({ alerts: { timers: false } })
  await insertDispatches(t.database.db, [
    { id: 'e-soon', destinationId: 'co-e', expirationDate: new Date(NOW.getTime() + 5 * day) },
    { id: 'e-far', destinationId: 'co-e', expirationDate: new Date(NOW.getTime() + 90 * day) },
    { id: 'e-past', destinationId: 'co-e', expirationDate: new Date(NOW.getTime() - 3 * day) },
    { id: 'u-unlimited', destinationId: 'co-e', registrationCount: 500, registrationCap: 0 },
    { id: 'u-over', destinationId: 'co-f', registrationCount: 95, registrationCap: 100 },
    { id: 'flag', destinationId: 'co-f', enabled: true },
    { id: 'flag-off', destinationId: 'co-f', enabled: false },
  ])
})
afterAll(async () => t?.close())

describe('alert evaluation (SQL)', () => {
  it('first pass: the tightest crossing per dispatch and kind; no alert for unlimited, far or past expiries, or flags first seen', async () => {
    expect(kinds(await evaluate())).toEqual(['e-soon:expiry:7', 'u-over:usage:90'])
    // The crossings above the raised level are recorded too: 30 days will not fire later.
    const states = await rows(t.database.db, sql`select dispatch_id, kind, level from alert_state order by 1, 2, 3`)
    expect(states.map((s) => `${s.dispatch_id}:${s.kind}:${s.level}`)).toEqual([
      'e-soon:expiry:7',
      'e-soon:expiry:30',
      'u-over:usage:80',
      'u-over:usage:90',
    ])
    expect(await evaluate()).toEqual([])
  })

  it('expiry: the day itself fires once; a moved-out date re-arms', async () => {
    const onTheDay = new Date(NOW.getTime() + 5 * day)
    expect(kinds(await evaluate(null, onTheDay))).toEqual(['e-soon:expiry:0'])
    await setDispatch(t.database.db, 'e-soon', { expirationDate: new Date(NOW.getTime() + 200 * day) })
    expect(await evaluate()).toEqual([])
    await setDispatch(t.database.db, 'e-soon', { expirationDate: new Date(NOW.getTime() + 20 * day) })
    expect(kinds(await evaluate())).toEqual(['e-soon:expiry:30'])
  })

  it('disabled and removed upstream raise one alert each on the change, not again', async () => {
    await setDispatch(t.database.db, 'flag', { enabled: false })
    await setDispatch(t.database.db, 'flag-off', { removedAt: new Date() })
    expect(kinds(await evaluate()).sort()).toEqual(['flag-off:removed:0', 'flag:disabled:0'])
    expect(await evaluate()).toEqual([])
    await setDispatch(t.database.db, 'flag', { enabled: true })
    expect(await evaluate()).toEqual([])
    await setDispatch(t.database.db, 'flag', { enabled: false })
    expect(kinds(await evaluate())).toEqual(['flag:disabled:0'])
  })

  it('a company override replaces the global thresholds; a postback batch evaluates only its dispatches', async () => {
    await t.database.db.execute(
      sql`insert into company_alert_settings (company_id, usage_thresholds, expiry_days) values ('co-e', '{50}', '{}')`,
    )
    await setDispatch(t.database.db, 'u-unlimited', { registrationCap: 800 })
    // Outside the batch: nothing happens to it yet.
    expect(await evaluate(['u-over'])).toEqual([])
    expect(kinds(await evaluate(['u-unlimited']))).toEqual(['u-unlimited:usage:50'])
    // Expiry days now empty for co-e: its expiry states are cleared.
    await evaluate()
    const left = await rows(t.database.db, sql`select count(*)::int as n from alert_state where dispatch_id = 'e-soon'`)
    expect(left[0]!.n).toBe(0)
  })

  it('a stored postback triggers a (debounced) evaluation of its dispatch, off the request', async () => {
    await setDispatch(t.database.db, 'u-over', { registrationCount: 10 })
    await evaluate()
    await setDispatch(t.database.db, 'u-over', { registrationCount: 85 })
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/scorm-cloud/registrations',
      headers: { authorization: `Basic ${Buffer.from('scorm-cloud:postback-secret').toString('base64')}` },
      payload: { id: 'reg-pb-1', dispatchId: 'u-over', updated: new Date().toISOString() },
    })
    expect(res.statusCode, res.body).toBe(200)
    await runDueJobs(t.app)
    const alerts = await rows(
      t.database.db,
      sql`select kind, level from alert where dispatch_id = 'u-over' order by id desc limit 1`,
    )
    expect(alerts[0]).toEqual({ kind: 'usage', level: 80 })
  })
})
