import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import type { ReportResponse } from '@portal/shared'
import { buildTestApp, type TestContext } from '../../test/helpers'
import { insertDispatches } from '../dispatches/dispatches.test-data'

/**
 * The distinct learners of a last-access window on a dispatch with repeat learners come from the
 * day counts less the repeat learners' kept registrations (dispatch_repeat_day, migration 0042).
 * They must equal count(distinct) over the rows for any window and status, with and without the
 * repeat-learners filter, through inserts, updates (last access, status, e-mail), removals,
 * restorations and deletes, as learners gain and lose a second registration; and the table must
 * hold exactly the repeat learners' live, accessed registrations.
 */

let t: TestContext
let admin: { 'x-auth-token': string }

/** A small deterministic generator (mulberry32): the same windows and changes on every run. */
function rng(seed: number) {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let x = Math.imul(a ^ (a >>> 15), 1 | a)
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x
    return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296
  }
}
const random = rng(42)
const below = (n: number) => Math.floor(random() * n)

const STATUSES = ['completed', 'incomplete', 'not attempted']
const DISPATCHES = ['rep', 'rep-other', 'rep-none']

const day = (n: number) => new Date(Date.UTC(2026, 1, 1) + n * 86_400_000).toISOString().slice(0, 10)

/** Registration values as SQL: learner n, status and last access drawn (one in eight never accessed). */
function registrationValues(id: string, dispatchId: string, learner: number) {
  const access = below(8) === 0 ? null : new Date(Date.UTC(2026, 1, 1) + below(40) * 86_400_000 + below(86_400) * 1000)
  return sql`(${id}, ${dispatchId}, 'c', ${`L${learner}`}, 'Ana', 'Smith', ${`learner${learner}@example.test`},
    ${STATUSES[below(3)]}, 'unknown', ${access?.toISOString() ?? null}::timestamptz)`
}

let sequence = 0
async function insert(rows: [dispatchId: string, learner: number][]) {
  const values = rows.map(([dispatchId, learner]) => registrationValues(`r${(sequence += 1)}`, dispatchId, learner))
  await t.database.db.execute(sql`
    insert into registration (id, dispatch_id, course_id, learner_id, learner_first_name, learner_last_name,
      learner_email, completion_status, success_status, last_access_date)
    values ${sql.join(values, sql`, `)}`)
}

beforeAll(async () => {
  t = await buildTestApp()
  admin = (await t.loginAs('admin')).headers
  await insertDispatches(
    t.database.db,
    DISPATCHES.map((id) => ({ id, destinationId: 'company-rep' })),
  )
  // 'rep': 120 learners, 15 of them twice and 5 three times (one statement); 'rep-other' the
  // same learners once each (licences are per dispatch); 'rep-none' no repeat learner.
  const rows: [string, number][] = []
  for (let n = 0; n < 120; n += 1) rows.push(['rep', n], ['rep-other', n], ['rep-none', n])
  for (let n = 0; n < 20; n += 1) rows.push(['rep', n])
  for (let n = 0; n < 5; n += 1) rows.push(['rep', n])
  await insert(rows)
  // The first test file of a worker migrates its template: minutes on a busy machine.
}, 300_000)
afterAll(async () => t.close())

interface Window {
  status?: string
  startDate?: string
  endDate?: string
  repeatLearners?: boolean
}

function randomWindow(): Window {
  const start = below(44) - 2
  const window: Window = {}
  const shape = below(4)
  if (shape !== 1) window.startDate = day(start)
  if (shape !== 2) window.endDate = day(start + below(20))
  if (shape === 3) window.endDate = day(start) // a single day
  if (below(2)) window.status = STATUSES[below(3)]
  if (below(4) === 0) window.repeatLearners = true
  return window
}

async function answered(dispatchId: string, window: Window) {
  const query = new URLSearchParams(Object.entries(window).map(([k, v]): [string, string] => [k, String(v)]))
  const res = await t.app.inject({ method: 'GET', url: `/api/reports/dispatch/${dispatchId}?${query}`, headers: admin })
  expect(res.statusCode, res.body).toBe(200)
  const body = res.json<ReportResponse>()
  return { total: body.pagination.totalItems, learners: body.distinctLearners }
}

/** The same window counted from the rows themselves. */
async function counted(dispatchId: string, w: Window) {
  const result = (await t.database.db.execute(sql`
    select count(*)::int as total, count(distinct learner_hash)::int as learners from registration as r
    where dispatch_id = ${dispatchId} and removed_at is null
      and (${w.status ?? null}::text is null or completion_status = ${w.status ?? null})
      and (${w.startDate ?? null}::text is null or last_access_date >= (${w.startDate ?? null}::date)::timestamp at time zone 'UTC')
      and (${w.endDate ?? null}::text is null or last_access_date < ((${w.endDate ?? null}::date + 1)::timestamp at time zone 'UTC'))
      and (not ${Boolean(w.repeatLearners)} or (select count(*) from registration as o
        where o.dispatch_id = r.dispatch_id and o.learner_hash = r.learner_hash and o.removed_at is null) > 1)`)) as unknown as {
    rows: { total: number; learners: number }[]
  }
  return result.rows[0]!
}

/** dispatch_repeat_day against the repeat learners' live, accessed registrations counted again. */
async function expectTableExact() {
  const rows = async (query: ReturnType<typeof sql>) =>
    ((await t.database.db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows.map((r) =>
      JSON.stringify(r),
    )
  const kept = await rows(sql`select dispatch_id, day::text, completion_status, learner_hash::text, registrations
    from dispatch_repeat_day order by 1, 2, 3, 4`)
  const expected = await rows(sql`select dispatch_id, ((last_access_date at time zone 'UTC')::date)::text as day,
      completion_status, learner_hash::text, count(*)::int as registrations
    from registration as r where removed_at is null and last_access_date is not null
      and (select count(*) from registration as o
        where o.dispatch_id = r.dispatch_id and o.learner_hash = r.learner_hash and o.removed_at is null) > 1
    group by 1, 2, 3, 4 order by 1, 2, 3, 4`)
  expect(kept).toEqual(expected)
}

async function expectWindowsCounted(windows = 10) {
  await expectTableExact()
  for (let i = 0; i < windows; i += 1) {
    const window = randomWindow()
    for (const dispatchId of DISPATCHES) {
      const label = `${dispatchId} ${JSON.stringify(window)}`
      expect(await answered(dispatchId, window), label).toEqual(await counted(dispatchId, window))
    }
  }
}

const ids = async (where: ReturnType<typeof sql>) =>
  (
    (await t.database.db.execute(sql`select id from registration where ${where} order by id`)) as unknown as {
      rows: { id: string }[]
    }
  ).rows.map((r) => r.id)

describe('completion report: distinct learners of a window with repeat learners', () => {
  it('equal count(distinct) for random windows and statuses, with and without repeat learners', async () => {
    const stats = (await t.database.db.execute(
      sql`select dispatch_id, registrations, learners from dispatch_stat where dispatch_id like 'rep%' order by 1`,
    )) as unknown as { rows: { dispatch_id: string; registrations: number; learners: number }[] }
    expect(stats.rows.map((r) => [r.dispatch_id, r.registrations - r.learners])).toEqual([
      ['rep', 25],
      ['rep-none', 0],
      ['rep-other', 0],
    ])
    await expectWindowsCounted(30)
  }, 180_000)

  it('follow learners gaining a second registration and losing it (removal, delete, e-mail change)', async () => {
    const db = t.database.db
    // Gain: a second registration, one at a time and several in one statement (two of one learner).
    await insert([['rep', 50]])
    await insert([
      ['rep', 51],
      ['rep', 52],
      ['rep', 52],
      ['rep-none', 60],
    ])
    await expectWindowsCounted()
    // Lose: the extra registration removed, deleted, or moved to another learner by its e-mail.
    const [first, second] = await ids(sql`dispatch_id = 'rep' and learner_id = 'L50'`)
    await db.execute(sql`update registration set removed_at = now() where id = ${second!}`)
    const of51 = await ids(sql`dispatch_id = 'rep' and learner_id = 'L51'`)
    await db.execute(sql`delete from registration where id = ${of51[1]!}`)
    const of52 = await ids(sql`dispatch_id = 'rep' and learner_id = 'L52'`)
    await db.execute(
      sql`update registration set learner_email = 'someone.else@example.test' where id in (${of52[1]!}, ${of52[2]!})`,
    )
    await expectWindowsCounted()
    // Gain again: the removed registration restored, and the first one's e-mail in another case.
    await db.execute(sql`update registration set removed_at = null where id = ${second!}`)
    await db.execute(sql`update registration set learner_email = 'LEARNER50@example.test' where id = ${first!}`)
    await expectWindowsCounted()
  }, 180_000)

  it('follow moves of last access and status, never-accessed rows, and many rows in one statement', async () => {
    const db = t.database.db
    await db.execute(sql`update registration set last_access_date = last_access_date + interval '3 days'
      where dispatch_id = 'rep' and learner_id in ('L0', 'L1', 'L2', 'L7', 'L30')`)
    await db.execute(sql`update registration set completion_status = 'completed'
      where dispatch_id = 'rep' and learner_id in ('L3', 'L4', 'L8')`)
    await db.execute(
      sql`update registration set last_access_date = null where dispatch_id = 'rep' and learner_id = 'L5'`,
    )
    await db.execute(sql`update registration set last_access_date = timestamptz '2026-02-10T23:59:59Z'
      where dispatch_id = 'rep' and learner_id in ('L6', 'L9')`)
    await expectWindowsCounted()
    // A whole learner removed at once, and learners with three registrations losing two.
    await db.execute(sql`update registration set removed_at = now() where dispatch_id = 'rep' and learner_id = 'L10'`)
    const [, ...extra] = await ids(sql`dispatch_id = 'rep' and learner_id = 'L1'`)
    await db.execute(sql`delete from registration where id in (${sql.join(extra, sql`, `)})`)
    await expectWindowsCounted()
    // Random statements over many rows: every live registration's access and status redrawn.
    for (let round = 0; round < 3; round += 1) {
      await db.execute(sql`update registration set
          last_access_date = case when random() < 0.1 then null
            else timestamptz '2026-02-01T00:00:00Z' + floor(random() * 40) * interval '1 day' + random() * interval '1 day' end,
          completion_status = (array['completed', 'incomplete', 'not attempted'])[1 + floor(random() * 3)::int]
        where dispatch_id like 'rep%' and random() < 0.5`)
      await expectWindowsCounted(6)
    }
  }, 180_000)
})
