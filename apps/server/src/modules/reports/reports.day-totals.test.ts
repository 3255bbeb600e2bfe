import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import type { ReportResponse } from '@portal/shared'
import { buildTestApp, type TestContext } from '../../test/helpers'
import { insertDispatches } from '../dispatches/dispatches.test-data'

let t: TestContext
let admin: { 'x-auth-token': string }

/**
 * The totals of a last-access window come from the kept day counts (migration 0041): they must
 * equal a count of the rows, after inserts, updates that move a last access or a status, removals
 * and deletes, and with a learner holding two registrations (then the learners are counted).
 */
beforeAll(async () => {
  t = await buildTestApp()
  admin = (await t.loginAs('admin')).headers
  await insertDispatches(t.database.db, [
    { id: 'days', destinationId: 'company-days' },
    { id: 'twice', destinationId: 'company-days' },
  ])
  // 300 learners over 60 days (some never accessed), each once on 'days'; on 'twice' learner 7 twice.
  await t.database.db.execute(sql`
    insert into registration (id, dispatch_id, course_id, learner_id, learner_first_name, learner_last_name,
      learner_email, completion_status, success_status, last_access_date)
    select d || '-' || g, d, 'c', 'L' || g, 'Ana', 'Smith', 'learner' || (case when d = 'twice' and g = 8 then 7 else g end) || '@example.test',
      (array['completed', 'incomplete', 'not attempted'])[1 + g % 3], 'unknown',
      case when g % 10 = 0 then null else timestamptz '2026-02-01T00:00:00Z' + (g % 60) * interval '1 day' + (g % 24) * interval '1 hour' end
    from generate_series(1, 300) as g cross join (values ('days'), ('twice')) as v(d)`)
})
afterAll(async () => t.close())

const windows = [
  'startDate=2026-02-10&endDate=2026-02-20',
  'startDate=2026-02-10&endDate=2026-02-20&status=completed',
  'startDate=2026-03-01',
  'endDate=2026-02-05&status=incomplete',
  'startDate=2026-02-15&endDate=2026-02-15&status=not%20attempted',
  'startDate=2027-01-01',
]

async function answered(dispatchId: string, query: string) {
  const res = await t.app.inject({ method: 'GET', url: `/api/reports/dispatch/${dispatchId}?${query}`, headers: admin })
  expect(res.statusCode, res.body).toBe(200)
  const body = res.json<ReportResponse>()
  return { total: body.pagination.totalItems, learners: body.distinctLearners }
}

/** The same window counted from the rows themselves. */
async function counted(dispatchId: string, query: string) {
  const q = new URLSearchParams(query)
  const from = q.get('startDate')
  const end = q.get('endDate')
  const status = q.get('status')
  const rows = (await t.database.db.execute(sql`
    select count(*)::int as total, count(distinct learner_hash)::int as learners from registration
    where dispatch_id = ${dispatchId} and removed_at is null
      and (${status}::text is null or completion_status = ${status})
      and (${from}::text is null or last_access_date >= (${from}::date)::timestamp at time zone 'UTC')
      and (${end}::text is null or last_access_date < ((${end}::date + 1)::timestamp at time zone 'UTC'))`)) as unknown as {
    rows: { total: number; learners: number }[]
  }
  return rows.rows[0]!
}

async function expectAllWindowsCounted() {
  for (const dispatchId of ['days', 'twice']) {
    for (const query of windows) {
      expect(await answered(dispatchId, query), `${dispatchId} ${query}`).toEqual(await counted(dispatchId, query))
    }
  }
}

describe('completion report totals of a last-access window', () => {
  it('equal the counted rows, on a dispatch without and with a repeat learner', async () => {
    expect((await answered('days', windows[0]!)).total).toBeGreaterThan(0)
    await expectAllWindowsCounted()
  })

  it('follow updates that move a last access or a status, removals and deletes', async () => {
    const db = t.database.db
    await db.execute(sql`update registration set last_access_date = last_access_date + interval '9 days'
      where dispatch_id = 'days' and id like 'days-1%'`)
    await db.execute(
      sql`update registration set completion_status = 'completed' where dispatch_id = 'days' and id like 'days-2%'`,
    )
    await db.execute(
      sql`update registration set last_access_date = timestamptz '2026-02-12T10:00:00Z' where id = 'days-10'`,
    )
    await db.execute(sql`update registration set removed_at = now() where id in ('days-31', 'days-32', 'twice-33')`)
    await db.execute(sql`delete from registration where id in ('days-41', 'twice-42')`)
    await expectAllWindowsCounted()
  })
})
