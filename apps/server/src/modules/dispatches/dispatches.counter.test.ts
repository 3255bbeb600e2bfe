import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import { startSimulator, type Simulator } from '@portal/scorm-cloud-sim'
import { buildTestApp, testConfig, type TestContext } from '../../test/helpers'
import { appParts } from '../../app'

let sim: Simulator
let t: TestContext

/**
 * The aggregates of migration 0008 (dispatch_stat, dispatch_learner, dispatch_summary) are kept
 * by triggers, not by the sync module: this runs the real sync against the simulator, postbacks
 * and edits, and after each step recounts every aggregate from the rows and compares.
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

type Row = Record<string, unknown>
const rows = async (query: ReturnType<typeof sql>) =>
  ((await t.database.db.execute(query)) as unknown as { rows: Row[] }).rows.map((r) =>
    Object.fromEntries(
      Object.entries(r).map(([k, v]) => [k, typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v]),
    ),
  )

/** Kept values and recounted values side by side; equal when the triggers are right. */
async function compare() {
  const stat = await rows(sql`
    select d.id,
      s.registrations, s.completed, s.incomplete, s.not_attempted,
      s.learners, s.learners_completed, s.learners_incomplete, s.learners_not_attempted
    from dispatch d left join dispatch_stat s on s.dispatch_id = d.id order by d.id`)
  const statRecount = await rows(sql`
    select d.id,
      count(r.id) as registrations,
      count(r.id) filter (where r.completion_status = 'completed') as completed,
      count(r.id) filter (where r.completion_status = 'incomplete') as incomplete,
      count(r.id) filter (where r.completion_status = 'not attempted') as not_attempted,
      count(distinct r.learner_hash) as learners,
      count(distinct r.learner_hash) filter (where r.completion_status = 'completed') as learners_completed,
      count(distinct r.learner_hash) filter (where r.completion_status = 'incomplete') as learners_incomplete,
      count(distinct r.learner_hash) filter (where r.completion_status = 'not attempted') as learners_not_attempted
    from dispatch d left join registration r on r.dispatch_id = d.id and r.removed_at is null
    group by d.id order by d.id`)
  const summary = await rows(sql`
    select company_id, enabled, dispatches, registrations, capped_registrations, capped_capacity, unlimited,
      active_registrations
    from dispatch_summary where dispatches <> 0 or active_registrations <> 0 order by company_id, enabled`)
  const summaryRecount = await rows(sql`
    select d.destination_id as company_id, d.enabled, count(*) as dispatches,
      sum(d.registration_count) as registrations,
      coalesce(sum(d.registration_count) filter (where d.registration_cap > 0), 0) as capped_registrations,
      coalesce(sum(d.registration_cap) filter (where d.registration_cap > 0), 0) as capped_capacity,
      count(*) filter (where d.registration_cap <= 0) as unlimited,
      (select count(*) from registration r join dispatch x on x.id = r.dispatch_id
        where r.removed_at is null and x.removed_at is null and x.destination_id = d.destination_id
          and x.enabled = d.enabled) as active_registrations
    from dispatch d where d.removed_at is null
    group by d.destination_id, d.enabled order by company_id, enabled`)
  // The kept total over every company (what a staff page reads) against a recount of every live
  // dispatch: both flags always have their row, zeros included.
  const total = await rows(sql`
    select enabled, dispatches, registrations, capped_registrations, capped_capacity, unlimited, active_registrations
    from dispatch_summary_total order by enabled`)
  const totalRecount = await rows(sql`
    select v.enabled, count(d.id) as dispatches,
      coalesce(sum(d.registration_count), 0) as registrations,
      coalesce(sum(d.registration_count) filter (where d.registration_cap > 0), 0) as capped_registrations,
      coalesce(sum(d.registration_cap) filter (where d.registration_cap > 0), 0) as capped_capacity,
      count(d.id) filter (where d.registration_cap <= 0) as unlimited,
      (select count(*) from registration r join dispatch x on x.id = r.dispatch_id
        where r.removed_at is null and x.removed_at is null and x.enabled = v.enabled) as active_registrations
    from (values (false), (true)) as v(enabled)
    left join dispatch d on d.enabled = v.enabled and d.removed_at is null
    group by v.enabled order by v.enabled`)
  // The counts by sort key that place deep staff pages (rows whose count fell to zero stay).
  const sortCounts = await rows(sql`
    select sort, key, enabled, dispatches from dispatch_sort_count where dispatches <> 0 order by 1, 2, 3`)
  const sortRecount = await rows(sql`
    select * from (
      select 'client' as sort, destination_key as key, enabled, count(*) as dispatches from dispatch
      where removed_at is null group by 2, 3
      union all
      select 'course', course_key, enabled, count(*) from dispatch where removed_at is null group by 2, 3
    ) as counted order by 1, 2, 3`)
  return { stat, statRecount, summary, summaryRecount, total, totalRecount, sortCounts, sortRecount }
}

async function expectKeptEqualsRecount() {
  const { stat, statRecount, summary, summaryRecount, total, totalRecount, sortCounts, sortRecount } = await compare()
  expect(stat.length).toBeGreaterThan(0)
  expect(stat).toEqual(statRecount)
  expect(summary).toEqual(summaryRecount)
  expect(total).toEqual(totalRecount)
  expect(sortCounts).toEqual(sortRecount)
}

const postback = (body: unknown) =>
  t.app.inject({
    method: 'POST',
    url: '/api/webhooks/scorm-cloud/registrations',
    headers: {
      authorization: `Basic ${Buffer.from(`${testConfig().postbackUser}:${testConfig().postbackPassword}`).toString('base64')}`,
    },
    payload: body as object,
  })

describe('kept dispatch aggregates (migrations 0008, 0051 and 0052)', () => {
  it('match a recount after a full sync, new registrations, postbacks, edits and a removal', async () => {
    await appParts(t.app).sync!.run({ trigger: 'manual', full: true })
    await expectKeptEqualsRecount()
    const admin = await t.loginAs('admin')
    const count = async () =>
      (await t.app.inject({ method: 'GET', url: '/api/reports/registrations/count', headers: admin.headers })).json()
    const before = (await count()).databaseCount as number
    expect(before).toBeGreaterThan(0)

    const [first, second, third] = sim.data.listDispatchIds()
    sim.addRegistration(first!)
    sim.addRegistration(first!)
    sim.addRegistration(second!)
    await appParts(t.app).sync!.run({ trigger: 'schedule' })
    await expectKeptEqualsRecount()
    expect((await count()).databaseCount).toBe(before + 3)

    // Progress through the webhook: statuses move, learners move between status counts.
    for (const id of sim.data.listRegistrationIds(first!, 5)) {
      const advanced = sim.advanceRegistration(id)
      expect((await postback(advanced)).statusCode).toBeLessThan(300)
    }
    await expectKeptEqualsRecount()

    // A dispatch disabled, a cap changed and one removed upstream: the summary moves with them.
    sim.touchDispatch(second!, { enabled: false, registrationCap: 5 })
    sim.removeDispatch(third!)
    await appParts(t.app).sync!.run({ trigger: 'manual', full: true })
    await expectKeptEqualsRecount()
  })
})
