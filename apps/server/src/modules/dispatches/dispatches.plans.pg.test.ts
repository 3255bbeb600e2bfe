import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type pg from 'pg'
import { drizzle } from 'drizzle-orm/node-postgres'
import { PgDialect } from 'drizzle-orm/pg-core'
import type { Database, Db } from '../../db/client'
import * as schema from '../../db/schema'
import { termMatch } from '../../db/search'
import { buildTestApp, type TestContext } from '../../test/helpers'
import { usingPostgres } from '../../test/test-database'
import { dispatchFields } from './dispatches.fields'
import { createDispatchesRepository, SHALLOW_PAGE_END } from './dispatches.repository'
import { staffSearchSummarySql } from './dispatches-summary.sql'

/**
 * On PostgreSQL a staff search's summary and a sparse search's page hand their values
 * to PostgreSQL only inside sub-selects (MatchOptions.opaque, DispatchesRepositoryOptions
 * .reusePlans), so every term and page plans alike and each prepared statement moves to one
 * generic plan after PostgreSQL's five custom ones, instead of planning each request (0.4 ms of
 * a 1.1 ms summary on the bench data). With plain parameters the custom plans look cheaper than
 * the generic one and every run is planned again. A staff page near the start of the unsearched
 * list walks at most SHALLOW_PAGE_END rows, a number in its text, so its generic plan is the
 * walk of the sort index too. Read from pg_prepared_statements, per session.
 */
describe.runIf(usingPostgres())('staff search statements reuse one plan (PostgreSQL)', () => {
  let t: TestContext
  let pool: pg.Pool
  let client: pg.PoolClient

  const plansOf = async (session: pg.PoolClient, like: string) =>
    (
      await session.query<{ generic: string; custom: string }>(
        `select generic_plans as generic, custom_plans as custom from pg_prepared_statements where statement like $1`,
        [like],
      )
    ).rows.map((r) => ({ generic: Number(r.generic), custom: Number(r.custom) }))

  // Bench-like proportions (20,000 dispatches over 300 courses and 500 companies), so the
  // planner's estimates for a known term and an unknown one differ as they do at scale.
  beforeAll(async () => {
    t = await buildTestApp()
    pool = (t.database as Database & { pool: pg.Pool }).pool
    client = await pool.connect()
    const words = `array['Safety', 'Excel', 'Privacy', 'Leadership', 'Customer', 'Finance']`
    await client.query(`insert into course (id, title)
      select 'course-' || i, (${words})[1 + i % 6] || ' Basics ' || i from generate_series(0, 299) i`)
    await client.query(`insert into company (id, name)
      select 'company-' || i, (${words})[1 + i % 5] || ' Holdings ' || i from generate_series(0, 499) i`)
    await client.query(`insert into dispatch (id, course_id, course_title, destination_id, destination_name)
      select md5(i::text) || '-' || i, c.id, c.title, co.id, co.name from generate_series(0, 19999) i
      join course c on c.id = 'course-' || (i % 300) join company co on co.id = 'company-' || (i % 500)`)
    await client.query('analyze')
  })
  afterAll(async () => {
    client.release()
    await t.close()
  })

  it('runs a summary of every term of three letters or more on a generic plan after the first five', async () => {
    const dialect = new PgDialect()
    const terms = ['safety', 'excel', 'privacy', 'leader', 'customer', 'finance', 'holdings', 'basics', 'a1b']
    for (const term of terms) {
      const search = termMatch(term)
      const query = dialect.sqlToQuery(staffSearchSummarySql({ status: 'all', search }, search, { opaque: true }))
      const { rows } = await client.query<{ totalDispatches: string }>(query.sql, query.params)
      expect(Number(rows[0]!.totalDispatches)).toBeGreaterThan(0)
    }
    expect(await plansOf(client, '%search_sets%')).toEqual([{ custom: 5, generic: terms.length - 5 }])
  })

  it('reads the pages of sparse searches (collected matches) on a generic plan after the first five', async () => {
    const repository = createDispatchesRepository(drizzle({ client, schema }) as unknown as Db, { reusePlans: true })
    // Each names a few courses or companies (about 3 % of the dispatches).
    const terms = ['basics 25', 'basics 7', 'holdings 45', 'basics 19', 'holdings 8', 'basics 33', 'holdings 21']
    for (const [i, term] of terms.entries()) {
      const filter = { status: 'all', search: term } as const
      const facts = await repository.facts(filter)
      const counts = { matches: facts.summary.totalDispatches, scope: facts.scopeDispatches }
      expect(counts.matches * 5).toBeLessThan(counts.scope) // sparse: collected, not walked
      const fields = dispatchFields.view('admin')
      const page = await repository.page(fields, filter, facts.sets, 'course', 'asc', 10, 10 * (i % 3), counts)
      expect(JSON.parse(page.rowsJson)).toHaveLength(10)
    }
    expect(await plansOf(client, '%"matched"%')).toEqual([{ custom: 5, generic: terms.length - 5 }])
  })

  it('reads a page near the start of the unsearched staff list with its summary on one generic plan, walking the sort index', async () => {
    const repository = createDispatchesRepository(drizzle({ client, schema }) as unknown as Db, { reusePlans: true })
    const fields = dispatchFields.view('admin')
    const expected = (
      await client.query<{ id: string }>(
        `select id from dispatch where removed_at is null order by destination_key asc, id asc limit $1`,
        [SHALLOW_PAGE_END],
      )
    ).rows.map((r) => r.id)
    // Pages anywhere before SHALLOW_PAGE_END, the last one ending on it.
    const pages = [
      [50, 0],
      [25, 25],
      [10, 990],
      [50, 400],
      [100, 100],
      [50, 950],
      [200, 800],
    ] as const
    for (const [limit, offset] of pages) {
      const read = await repository.summaryAndPage(fields, { status: 'all' }, 'client', 'asc', limit, offset)
      expect(read.summary.totalDispatches).toBe(20_000)
      const ids = (JSON.parse(read.rowsJson) as { id: string }[]).map((row) => row.id)
      expect(ids).toEqual(expected.slice(offset, offset + limit))
    }
    expect(await plansOf(client, '%"walked"%')).toEqual([{ custom: 5, generic: pages.length - 5 }])
    // The plan kept is the walk of the sort index, not a sort of the whole list.
    const [{ statement }] = (
      await client.query<{ statement: string }>(
        `select statement from pg_prepared_statements where statement like '%"walked"%'`,
      )
    ).rows as [{ statement: string }]
    const count = (statement.match(/\$\d+/g) ?? []).length
    await client.query(`prepare walked_page as ${statement}`)
    try {
      await client.query('set plan_cache_mode = force_generic_plan')
      const args = Array.from({ length: count }, () => 'null').join(', ')
      const plan = (await client.query<{ 'QUERY PLAN': string }>(`explain execute walked_page(${args})`)).rows
        .map((r) => r['QUERY PLAN'])
        .join('\n')
      expect(plan).toMatch(/Index Only Scan using dispatch_list_client_idx on dispatch/)
      expect(plan).not.toMatch(/Seq Scan on dispatch /)
    } finally {
      await client.query('reset plan_cache_mode')
      await client.query('deallocate walked_page')
    }
  })

  it('reads deeper pages of the unsearched staff list (placed by the kept counts, or walked) on a generic plan after the first five', async () => {
    const repository = createDispatchesRepository(drizzle({ client, schema }) as unknown as Db, { reusePlans: true })
    const fields = dispatchFields.view('admin')
    const counts = { matches: 20_000, scope: 20_000 }
    const idsOf = (rowsJson: string) => (JSON.parse(rowsJson) as { id: string }[]).map((row) => row.id)
    const order = async (by: string) =>
      (await client.query<{ id: string }>(`select id from dispatch where removed_at is null order by ${by}`)).rows.map(
        (r) => r.id,
      )
    // Placed: a walk starting PLACED_PAGE_OFFSET rows in or further, sorted by company.
    const byCompany = await order('destination_key asc, id asc')
    const placed = [2_000, 2_050, 3_975, 5_000, 2_600, 7_450, 4_000]
    for (const offset of placed) {
      const page = await repository.page(fields, { status: 'all' }, null, 'client', 'asc', 50, offset, counts)
      expect(idsOf(page.rowsJson)).toEqual(byCompany.slice(offset, offset + 50))
    }
    // Walked, not placed (the registrations sort has no kept counts), ending within the bound.
    const byRegistrations = await order('registration_count desc, id desc')
    const walked = [1_000, 1_100, 1_500, 1_950, 1_200, 1_800, 1_050]
    for (const offset of walked) {
      const page = await repository.page(fields, { status: 'all' }, null, 'registrations', 'desc', 200, offset, counts)
      expect(idsOf(page.rowsJson)).toEqual(byRegistrations.slice(offset, offset + 200))
    }
    const plans = (
      await client.query<{ statement: string; generic: string; custom: string }>(
        `select statement, generic_plans as generic, custom_plans as custom from pg_prepared_statements`,
      )
    ).rows
    const of = (test: (text: string) => boolean) =>
      plans.filter((p) => test(p.statement)).map((p) => ({ generic: Number(p.generic), custom: Number(p.custom) }))
    expect(of((text) => text.includes('with "at" as'))).toEqual([{ custom: 5, generic: placed.length - 5 }])
    expect(of((text) => text.includes('"walked"') && text.includes('"registration_count" desc'))).toEqual([
      { custom: 5, generic: walked.length - 5 },
    ])
  })

  it('is how the server runs staff searches on PostgreSQL', async () => {
    const { headers } = await t.loginAs('admin')
    const terms = ['basics 26', 'basics 8', 'holdings 46', 'basics 18', 'holdings 9', 'basics 34', 'holdings 22']
    for (const term of terms) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/dispatches?search=${encodeURIComponent(term)}`,
        headers,
      })
      expect(res.statusCode).toBe(200)
    }
    // Every other session of the server's pool (the test holds one), each with its own statements.
    const sessions = await Promise.all(Array.from({ length: pool.totalCount - 1 }, () => pool.connect()))
    try {
      const plans = (await Promise.all(sessions.map((s) => plansOf(s, '%search_sets%')))).flat()
      expect(plans.reduce((n, p) => n + p.custom + p.generic, 0)).toBe(terms.length)
      expect(plans.reduce((n, p) => n + p.generic, 0)).toBeGreaterThan(0)
    } finally {
      for (const s of sessions) s.release()
    }
  })

  it("hands a client's search summary its company and term only inside sub-selects", async () => {
    // On the bench data its custom plans (made for the company and the term) looked cheaper than
    // the generic one, so every request planned it again; hidden, every company and term plans
    // alike and PostgreSQL keeps the generic plan after five runs.
    const clients = [
      (await t.loginAs('client', { companyId: 'company-1' })).headers,
      (await t.loginAs('client', { companyId: 'company-2' })).headers,
    ]
    const terms = ['basics', 'safety', 'holdings', 'excel', 'privacy', 'finance', 'leader', 'customer']
    for (const [i, term] of terms.entries()) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/dispatches?search=${encodeURIComponent(term)}`,
        headers: clients[i % 2]!,
      })
      expect(res.statusCode).toBe(200)
    }
    const sessions = await Promise.all(Array.from({ length: pool.totalCount - 1 }, () => pool.connect()))
    try {
      const own = (
        await Promise.all(
          sessions.map(
            async (s) =>
              (
                await s.query<{ statement: string; generic: string; custom: string }>(
                  `select statement, generic_plans as generic, custom_plans as custom from pg_prepared_statements
                   where statement like '%sign * dispatches%' and statement not like '%search_sets%'`,
                )
              ).rows,
          ),
        )
      ).flat()
      expect(own.reduce((n, p) => n + Number(p.custom) + Number(p.generic), 0)).toBe(terms.length)
      for (const { statement } of own) {
        const params = statement.match(/\$\d+/g) ?? []
        const hidden = statement.match(/\(select (lower\()?\$\d+::/g) ?? []
        expect(params.length).toBeGreaterThan(0)
        expect(hidden).toHaveLength(params.length)
      }
    } finally {
      for (const s of sessions) s.release()
    }
  })
})
