import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import type { Database } from '../../db/client'
import { rowsOf } from '../../db/statement'
import { planNodes, type PlanNode } from '../../test/plan-nodes'
import { createTestDatabase } from '../../test/test-database'

/**
 * The repeat-learners filter reads a dispatch's learners with more than one registration
 * (dispatch_learner, registrations > 1) through their own partial index: through the primary key
 * it read every learner of the dispatch, and on a dispatch of a million registrations the planner
 * read the whole table instead. Plans on both databases.
 */
const LEARNERS = 20_000
let database: Database

beforeAll(async () => {
  database = await createTestDatabase()
  // Four dispatches of 5,000 learners each, 50 of each holding two registrations.
  await database.db.execute(sql`
    insert into dispatch_learner (dispatch_id, learner_hash, registrations, completed, incomplete, not_attempted)
    select 'd' || (g % 4), g, case when g % 100 < 4 then 2 else 1 end, 0, 1, 0
    from generate_series(1, ${sql.raw(String(LEARNERS))}) as g`)
  await database.db.execute(sql`analyze dispatch_learner`)
})
afterAll(async () => database.close())

async function planOf(query: string): Promise<PlanNode[]> {
  const [row] = rowsOf<{ 'QUERY PLAN': [{ Plan: PlanNode }] | string }>(
    await database.db.execute(sql.raw(`explain (format json) ${query}`)),
  )
  return planNodes(row!['QUERY PLAN'])
}

describe("a dispatch's repeat learners", () => {
  it('are read through dispatch_learner_repeat_idx, not the whole dispatch', async () => {
    const nodes = await planOf(
      `select learner_hash from dispatch_learner where dispatch_id = 'd1' and registrations > 1`,
    )
    expect(nodes.map((n) => n['Index Name']).filter(Boolean)).toEqual(['dispatch_learner_repeat_idx'])
    expect(nodes.map((n) => n['Node Type'])).not.toContain('Seq Scan')
  })
})
