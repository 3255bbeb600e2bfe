import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import type { Database, Db } from '../../db/client'
import { rowsOf } from '../../db/statement'
import { planOfLogged } from '../../test/plan-nodes'
import { createTestDatabase, loggingDb, type LoggedStatement } from '../../test/test-database'
import { createActivityRepository } from './activity.repository'
import { createLogsRepository } from './logs.repository'
import { createLogsService } from './logs.service'

/**
 * A log page reads its rows by primary-key look-ups in their month partitions, however small the
 * log: as a plain join, a log of some tens of thousands of rows was read whole into a hash for
 * every page. Plans on both databases.
 */
const ROWS = 20_000
let database: Database
let db: Db
const logged: LoggedStatement[] = []

beforeAll(async () => {
  database = await createTestDatabase()
  db = loggingDb(database, logged)
  await db.execute(sql`select activity_log_ensure_months((current_date - 366)::date, current_date)`)
  // A year of rows, oldest first, one every 26 minutes or so.
  await db.execute(sql`
    insert into activity_log (created_at, action, details)
    select now() - interval '365 days' + (g::double precision / ${ROWS}) * interval '365 days',
      'PAGE_VIEWED', jsonb_build_object('page', 'Page ' || g)
    from generate_series(1, ${sql.raw(String(ROWS))}) as g`)
  await db.execute(sql`analyze activity_log`)
})
afterAll(async () => database.close())

describe('activity log page plans', () => {
  it('reads a page of a small log by look-ups, never a whole partition, and answers the right rows', async () => {
    const repository = createLogsRepository(db)
    logged.length = 0
    const page = await repository.page({}, 50, 200)
    const entries = JSON.parse(page.entriesJson) as { details: { page: string } }[]
    // Newest first: rows ROWS-200 down to ROWS-249.
    expect(entries).toHaveLength(50)
    expect(entries[0]!.details.page).toBe(`Page ${ROWS - 200}`)
    expect(entries[49]!.details.page).toBe(`Page ${ROWS - 249}`)

    const statement = logged.find((q) => q.text.includes('"entriesJson"'))!
    const nodes = await planOfLogged(db, statement)
    const types = nodes.map((n) => n['Node Type'])
    expect(types).not.toContain('Hash Join')
    // Tiny partitions may be scanned (the month the year began in, those not yet begun); the
    // full months are read through their indexes only.
    const sizes = rowsOf<{ name: string; n: number }>(
      await db.execute(sql`select tableoid::regclass::text as name, count(*)::int as n from activity_log group by 1`),
    )
    const full = sizes.filter((p) => p.n > 1_000).map((p) => p.name)
    expect(full.length).toBeGreaterThanOrEqual(11)
    const scanned = nodes.filter((n) => n['Node Type'] === 'Seq Scan').map((n) => n['Relation Name']!)
    expect(scanned.filter((name) => full.includes(name))).toEqual([])
    expect(types).toContain('Nested Loop')
  })

  it('plans an unsearched page only in the months from its oldest day on, and answers the right rows', async () => {
    const logs = createLogsService({
      logs: createLogsRepository(db),
      activity: createActivityRepository(db),
      log: { error() {} },
    })
    const reader = { actor: null, ip: '127.0.0.1' }
    for (const page of [1, 5]) {
      logged.length = 0
      const answer = await logs.list({ page, limit: 50, getAll: false } as never, reader)
      const body = JSON.parse(answer.text()) as { totalLogs: number; logs: { details: { page: string } }[] }
      expect(body.totalLogs).toBe(ROWS)
      expect(body.logs).toHaveLength(50)
      expect(body.logs[0]!.details.page).toBe(`Page ${ROWS - (page - 1) * 50}`)
      expect(body.logs[49]!.details.page).toBe(`Page ${ROWS - (page - 1) * 50 - 49}`)

      const statement = logged.find((q) => q.text.includes('"entriesJson"'))!
      const months = (await planOfLogged(db, statement))
        .map((n) => /^activity_log_p(\d{6})$/.exec(n['Relation Name'] ?? '')?.[1])
        .filter((m): m is string => m !== undefined)
      // One row every 26 minutes or so: two pages back lie within the last few days, so only
      // the month those days fall in (and the months after it, still empty) are planned.
      const since = new Date(Date.now() - 4 * 86_400_000)
      const first = `${since.getUTCFullYear()}${String(since.getUTCMonth() + 1).padStart(2, '0')}`
      expect(months.length).toBeGreaterThan(0)
      expect(months.filter((m) => m < first)).toEqual([])
    }
  })

  it("reads a user's or an action's day counts from the index alone, and answers them all", async () => {
    // Two years of days for 300 users and 40 actions, written day by day as the triggers write
    // them, so one user's or action's days lie scattered over the table's pages.
    await db.execute(sql`
      insert into activity_log_user_day (user_id, day, rows)
      select ('00000000-0000-4000-8000-' || lpad(u::text, 12, '0'))::uuid, current_date - d, 1 + (u + d) % 7
      from generate_series(0, 729) as d, generate_series(1, 300) as u`)
    await db.execute(sql`
      insert into activity_log_day (day, action, rows)
      select current_date - 1000 - d, case when a = 7 then 'LOGS_EXPORTED' else 'ACTION_' || a end, 1 + (a + d) % 5
      from generate_series(0, 729) as d, generate_series(1, 40) as a`)
    await db.execute(sql`vacuum analyze activity_log_user_day`)
    await db.execute(sql`vacuum analyze activity_log_day`)
    const repository = createLogsRepository(db)
    const userId = '00000000-0000-4000-8000-000000000042'

    // Each reader: its days (rows of day d back from the newest) and the index it reads alone.
    const readers = [
      { filter: { userId }, rowsOf: (d: number) => 1 + ((42 + d) % 7), index: 'activity_log_user_day_pkey' },
      {
        filter: { action: 'LOGS_EXPORTED' as const },
        rowsOf: (d: number) => 1 + ((7 + d) % 5),
        index: 'activity_log_day_action_idx',
      },
    ]
    for (const { filter, rowsOf: rowsOfDay, index } of readers) {
      logged.length = 0
      const days = await repository.dayCounts(filter)
      expect(days.map((d) => d.rows)).toEqual(Array.from({ length: 730 }, (_, d) => rowsOfDay(d)))
      const nodes = await planOfLogged(db, logged[0]!)
      expect(nodes.map((n) => [n['Node Type'], n['Index Name']])).toContainEqual(['Index Only Scan', index])
    }
  })

  it("meets a search's user and action in the search index itself, and finds the same rows", async () => {
    // Twenty days of 60,000 rows of four actions by five users; one row in 211 names the term.
    await db.execute(sql`
      insert into activity_log (created_at, user_id, action, details)
      select now() - (g::double precision / 60000) * interval '20 days',
        ('00000000-0000-4000-8000-00000000000' || (g % 5))::uuid,
        (array['LOGIN_SUCCESS', 'LOGOUT', 'PAGE_VIEWED', 'USER_UPDATED'])[1 + g % 4],
        jsonb_build_object('note', case when g % 211 = 0 then 'haystack needle ' || g else 'haystack ' || g end)
      from generate_series(1, 60000) as g`)
    // Vacuumed as autovacuum would have: the GIN indexes' pending entries merged and their statistics
    // (which the planner's cost of a GIN scan reads) brought up to date.
    await db.execute(sql`vacuum analyze activity_log`)
    const repository = createLogsRepository(db)
    const userId = '00000000-0000-4000-8000-000000000003'
    const cases = [
      { filter: { action: 'LOGOUT' as const, searchTerm: 'needle' }, where: sql`action = 'LOGOUT'` },
      { filter: { userId, searchTerm: 'needle' }, where: sql`user_id = ${userId}` },
      {
        filter: { userId, action: 'LOGOUT' as const, searchTerm: 'needle' },
        where: sql`user_id = ${userId} and action = 'LOGOUT'`,
      },
    ]
    for (const { filter, where } of cases) {
      logged.length = 0
      const found = await repository.matches(filter, 5_000, 'indexed')
      const expected = rowsOf<{ id: string }>(
        await db.execute(
          sql`select id::text as id from activity_log where ${where} and search_text like '%needle%' order by created_at desc, id desc`,
        ),
      )
      expect(found.map((k) => String(k.id))).toEqual(expected.map((r) => r.id))
      expect(found.length).toBeGreaterThan(10)

      const nodes = await planOfLogged(db, logged[0]!)
      // The months are read through the search index with the filters in its condition; no other
      // index is ANDed in, and no candidate row is fetched only to be dropped for its user or action.
      expect(nodes.map((n) => n['Node Type'])).not.toContain('BitmapAnd')
      const searched = nodes.filter(
        (n) =>
          n['Node Type'] === 'Bitmap Index Scan' &&
          /search_text/.test(n['Index Name'] ?? '') &&
          (!filter.action || /action = /.test(n['Index Cond'] ?? '')) &&
          (!filter.userId || /user_id = /.test(n['Index Cond'] ?? '')),
      )
      expect(searched.length).toBeGreaterThan(0)
      for (const node of nodes.filter((n) => n['Node Type'] === 'Bitmap Heap Scan')) {
        expect(node.Filter ?? '').not.toMatch(/action = |user_id = /)
      }
    }
  })

  it("compares a user's rows in a slice of time with the term in the index alone, and finds the same rows", async () => {
    // The rows of the test above (twenty days, five users, one row in 211 naming the term), vacuumed.
    const repository = createLogsRepository(db)
    const userId = '00000000-0000-4000-8000-000000000002'
    const from = new Date(Date.now() - 10 * 86_400_000)
    logged.length = 0
    const found = await repository.matches({ userId, from, searchTerm: 'needle' }, 5_000, 'scan')
    const expected = rowsOf<{ id: string }>(
      await db.execute(
        sql`select id::text as id from activity_log where user_id = ${userId} and created_at >= ${from.toISOString()}::timestamptz
          and search_text like '%needle%' order by created_at desc, id desc`,
      ),
    )
    expect(found.map((k) => String(k.id))).toEqual(expected.map((r) => r.id))
    expect(found.length).toBeGreaterThan(3)

    // The months holding the user's rows are read from the user's index, each row's text compared
    // there: no table page is read (the months without rows may be planned as anything).
    const months = rowsOf<{ name: string }>(
      await db.execute(sql`select distinct tableoid::regclass::text as name from activity_log
        where user_id = ${userId} and created_at >= ${from.toISOString()}::timestamptz`),
    ).map((r) => r.name)
    expect(months.length).toBeGreaterThan(0)
    const nodes = await planOfLogged(db, logged[0]!)
    const reads = nodes.filter((n) => months.includes(String(n['Relation Name'])))
    expect(reads.map((n) => n['Relation Name']).sort()).toEqual([...months].sort())
    for (const node of reads) {
      expect([node['Node Type'], node['Index Name']]).toEqual([
        'Index Only Scan',
        expect.stringMatching(/user_id_created_at/),
      ])
    }
  })
})
