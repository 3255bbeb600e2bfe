import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import type { Database, Db } from '../../db/client'
import { rowsOf } from '../../db/statement'
import { createTestDatabase, loggingDb, type LoggedStatement } from '../../test/test-database'
import { insertDispatches } from '../dispatches/dispatches.test-data'
import { createReportsRepository } from './reports.repository'

/**
 * A search past its cap whose term is common but spread over the whole order (a name one
 * learner in 25 has): the first walk of the report's order finds part of the page, and a longer
 * walk sized from that rate finds the rest, instead of sorting every match. The page is the
 * one the sorted matches give. Statements on both databases.
 */
const ROWS = 6_000
let database: Database
let db: Db
const logged: LoggedStatement[] = []

beforeAll(async () => {
  database = await createTestDatabase()
  db = loggingDb(database, logged)
  await insertDispatches(db, [{ id: 'walk', destinationId: 'company-walk' }])
  // One learner in 25 is a Sabine; last accesses one minute apart, newest last.
  await db.execute(sql`
    insert into registration (id, dispatch_id, course_id, learner_id, learner_first_name, learner_last_name,
      learner_email, completion_status, success_status, last_access_date)
    select 'reg-' || lpad(g::text, 5, '0'), 'walk', 'c', 'L' || g,
      case when g % 25 = 0 then 'Sabine' else 'Ana' end, 'Smith', 'learner' || g || '@example.test',
      'incomplete', 'unknown', timestamptz '2026-01-01T00:00:00Z' + g * interval '1 minute'
    from generate_series(1, ${sql.raw(String(ROWS))}) as g`)
})
afterAll(async () => database.close())

describe('a common search past its cap', () => {
  it("takes its page from a longer walk, and the page is its matches' first", async () => {
    const repository = createReportsRepository(db)
    logged.length = 0
    // Past the cap the total is not known (null): the report's own path for such a term.
    const page = await repository.page({ dispatchId: 'walk', search: 'sabine' }, 100, 0, null)
    const ids = (JSON.parse(page.rowsJson) as { id: string }[]).map((r) => r.id)
    const expected = rowsOf<{ id: string }>(
      await db.execute(sql`select id from registration where dispatch_id = 'walk' and learner_first_name = 'Sabine'
        order by last_access_date desc nulls last, id limit 100`),
    ).map((r) => r.id)
    expect(ids).toEqual(expected)
    // The page statements: a walk of 1,000 rows (40 matches), then one of 3,125; no sort of
    // every match.
    const walks = logged.filter((q) => q.text.includes('"rowsJson"')).map((q) => q.params.map(Number))
    expect(walks).toHaveLength(2)
    expect(walks[0]).toContain(1_000)
    expect(walks[1]).toContain(3_125)
  })

  it('sizes the longer walk for a later page from a count of the first walk', async () => {
    const repository = createReportsRepository(db)
    logged.length = 0
    const page = await repository.page({ dispatchId: 'walk', search: 'sabine' }, 100, 100, null)
    const ids = (JSON.parse(page.rowsJson) as { id: string }[]).map((r) => r.id)
    const expected = rowsOf<{ id: string }>(
      await db.execute(sql`select id from registration where dispatch_id = 'walk' and learner_first_name = 'Sabine'
        order by last_access_date desc nulls last, id limit 100 offset 100`),
    ).map((r) => r.id)
    expect(ids).toEqual(expected)
    // A walk of 2,000 rows holds 80 matches, all before the page: counted, then a walk of 6,250
    // (all 6,000 rows); no sort of every match.
    const pages = logged.filter((q) => q.text.includes('"rowsJson"')).map((q) => q.params.map(Number))
    expect(pages).toHaveLength(2)
    expect(pages[0]).toContain(2_000)
    expect(pages[1]).toContain(6_250)
    expect(logged.filter((q) => /select count\(\*\) as "n"/.test(q.text))).toHaveLength(1)
  })
})
