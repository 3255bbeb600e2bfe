import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase } from '../test/test-database'
import type { Database } from './client'
import { vacuumForIndexOnlyScans } from './visibility'

let database: Database
beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(async () => {
  await database.close()
})

type Row = Record<string, unknown>
const rows = async (query: ReturnType<typeof sql>) =>
  ((await database.db.execute(query)) as unknown as { rows: Row[] }).rows

const write = (...statements: ReturnType<typeof sql>[]) =>
  database.db.transaction(async (tx) => {
    for (const statement of statements) await tx.execute(statement)
  })

describe('the visibility map index-only scans need (migration 0017, no autovacuum needed)', () => {
  const visibility = async () => {
    const [row] = await rows(sql`select relpages, relallvisible from pg_class where relname = 'company_learner'`)
    return { pages: Number(row!.relpages), allVisible: Number(row!.relallvisible) }
  }

  it('vacuums company_learner when its visibility map covers under half of it, then leaves it alone', async () => {
    await write(
      sql`insert into company (id, name) values ('vac-co', 'Vac Co')`,
      sql`insert into course (id, title) values ('vac-course', 'Vac Course')`,
      sql`insert into dispatch (id, course_id, destination_id, destination_name, course_title)
        values ('vac-dispatch', 'vac-course', 'vac-co', 'Vac Co', 'Vac Course')`,
    )
    await write(sql`
      insert into registration (id, dispatch_id, course_id, learner_id, learner_email, completion_status,
        success_status)
      select 'vac-reg-' || n, 'vac-dispatch', 'vac-course', 'vac-' || n, 'vac' || n || '@example.com',
        'incomplete', 'unknown'
      from generate_series(1, 2000) as n`)
    // Written, never vacuumed (as after 0017's rewrite): the planner sees no page all-visible.
    await database.db.execute(sql`analyze company_learner`)
    const before = await visibility()
    expect(before.pages).toBeGreaterThan(0)
    expect(before.allVisible).toBeLessThan(before.pages / 2)

    expect(await vacuumForIndexOnlyScans(database.db)).toEqual(['company_learner'])
    const after = await visibility()
    expect(after.allVisible).toBe(after.pages)
    expect(await vacuumForIndexOnlyScans(database.db)).toEqual([])
  })
})
