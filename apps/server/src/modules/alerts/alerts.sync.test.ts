import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import type { Simulator } from '@portal/scorm-cloud-sim'
import { buildTestApp, runDueJobs, testConfig, type TestContext } from '../../test/helpers'
import { startTestSimulator } from '../sync/sync.test-support'
import { rows } from './alerts.test-support'
import { appParts } from '../../app'

/** A sync run (the real client against the simulator) ends with an alert evaluation. */
let t: TestContext
let sim: Simulator

beforeAll(async () => {
  sim = await startTestSimulator()
  t = await buildTestApp({
    config: testConfig({ scormCloud: { baseUrl: sim.url, appId: sim.appId, secretKey: sim.secretKey } }),
    alerts: { timers: false },
  })
})
afterAll(async () => {
  await t?.close()
  await sim?.close()
})

describe('alerts after a sync run', () => {
  it('raises the crossings of the synced mirror without any other trigger, once', async () => {
    // Every capped dispatch crosses 1 % once it has one registration.
    await t.database.db.execute(sql`update alert_settings set usage_thresholds = '{1}', expiry_days = '{}'`)
    const outcome = await appParts(t.app).sync!.run({ trigger: 'manual', full: true })
    expect(outcome.ok).toBe(true)
    await runDueJobs(t.app)
    const [expected] = await rows(
      t.database.db,
      sql`select count(*)::int as n from dispatch where removed_at is null and registration_cap > 0 and registration_count > 0`,
    )
    expect(Number(expected!.n)).toBeGreaterThan(0)
    const [raised] = await rows(t.database.db, sql`select count(*)::int as n from alert where kind = 'usage'`)
    expect(raised!.n).toBe(expected!.n)

    await appParts(t.app).sync!.run({ trigger: 'manual' })
    await runDueJobs(t.app)
    const [again] = await rows(t.database.db, sql`select count(*)::int as n from alert where kind = 'usage'`)
    expect(again!.n).toBe(expected!.n)
  })
})
