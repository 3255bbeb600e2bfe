import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import { startSimulator, type Simulator } from '@portal/scorm-cloud-sim'
import { dispatch } from '../../db/schema'
import { buildTestApp, testConfig, type TestContext } from '../../test/helpers'

let sim: Simulator
let t: TestContext

/**
 * dispatch.active_registration_count is kept by triggers (migration 0002), not by the sync
 * module: this runs the real sync against the simulator and checks the counter against a count.
 */
beforeAll(async () => {
  sim = await startSimulator({
    sizes: { courses: 4, destinations: 3, dispatches: 6, registrations: 40, bigDispatchRegistrations: 0 },
    pageSize: 7,
  })
  const scormCloud = { baseUrl: sim.url, appId: sim.appId, secretKey: sim.secretKey }
  t = await buildTestApp({ config: testConfig({ scormCloud }) })
})
afterAll(async () => {
  await t.close()
  await sim.close()
})

async function mismatches() {
  const rows = await t.database.db
    .select({
      id: dispatch.id,
      kept: dispatch.activeRegistrationCount,
      actual:
        sql<number>`(select count(*) from registration r where r.dispatch_id = "dispatch"."id" and r.removed_at is null)`.mapWith(
          Number,
        ),
    })
    .from(dispatch)
  expect(rows.length).toBeGreaterThan(0)
  return rows.filter((r) => r.kept !== r.actual)
}

describe('active registration counter', () => {
  it('matches the registration rows after a full and an incremental sync', async () => {
    await t.app.sync!.run({ trigger: 'manual', full: true })
    expect(await mismatches()).toEqual([])
    const admin = await t.loginAs('admin')
    const count = async () =>
      (await t.app.inject({ method: 'GET', url: '/api/reports/registrations/count', headers: admin.headers })).json()
    const before = (await count()).databaseCount as number
    expect(before).toBeGreaterThan(0)

    const [first, second] = sim.data.listDispatchIds()
    sim.addRegistration(first!)
    sim.addRegistration(first!)
    sim.addRegistration(second!)
    await t.app.sync!.run({ trigger: 'schedule' })
    expect(await mismatches()).toEqual([])
    expect((await count()).databaseCount).toBe(before + 3)
  })
})
