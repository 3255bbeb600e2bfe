import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase } from '../test/test-database'
import type { Database } from './client'
import { rowsOf } from './statement'
import { STALE_BASE, analyzeStaleTables } from './statistics'
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

/** Writes in one transaction whose commit publishes its table statistics at once. */
const write = (...statements: ReturnType<typeof sql>[]) =>
  database.db.transaction(async (tx) => {
    for (const statement of statements) await tx.execute(statement)
    await tx.execute(sql`select pg_stat_force_next_flush()`)
  })

/** A company, a course and a dispatch named after `key`, then `count` registrations of it. */
async function writeDispatch(key: string, count: number, status: 'completed' | 'incomplete') {
  await write(
    sql`insert into company (id, name) values (${`${key}-co`}, ${`${key} Co`})`,
    sql`insert into course (id, title) values (${`${key}-course`}, ${`${key} Course`})`,
    sql`insert into dispatch (id, course_id, destination_id, destination_name, course_title)
      values (${`${key}-dispatch`}, ${`${key}-course`}, ${`${key}-co`}, ${`${key} Co`}, ${`${key} Course`})`,
  )
  await write(sql`
    insert into registration (id, dispatch_id, course_id, learner_id, learner_email, completion_status,
      success_status)
    select ${`${key}-reg-`} || n, ${`${key}-dispatch`}, ${`${key}-course`}, ${`${key}-`} || n,
      ${key} || n || '@example.com', ${status}, 'unknown'
    from generate_series(1, ${count}) as n`)
}

const plannerRows = async (table: string) =>
  Number((await rows(sql`select reltuples from pg_class where relname = ${table}`))[0]!.reltuples)

describe('planner statistics kept by the writer (no autovacuum needed)', () => {
  it('analyzes a table once enough of it changed, and leaves it alone until more does', async () => {
    await write(sql`create table stat_probe (id integer)`)
    await write(sql`insert into stat_probe select generate_series(1, ${STALE_BASE - 10})`)
    expect(await analyzeStaleTables(database.db)).not.toContain('stat_probe')

    await write(sql`insert into stat_probe select generate_series(1, 5000)`)
    expect(await analyzeStaleTables(database.db)).toContain('stat_probe')
    // The planner now knows the table's size (before: never analyzed).
    expect(await plannerRows('stat_probe')).toBe(5000 + STALE_BASE - 10)

    // Just analyzed: nothing to do until another STALE_BASE + 20 % of it changes.
    expect(await analyzeStaleTables(database.db)).not.toContain('stat_probe')
    await write(sql`insert into stat_probe select generate_series(1, 100)`)
    expect(await analyzeStaleTables(database.db)).not.toContain('stat_probe')
  })

  it('catches by size what was written before the change counts started (PGlite forgets them on restart)', async () => {
    await write(sql`create table stat_restart (id integer, kind text)`)
    await write(sql`create index stat_restart_kind on stat_restart (kind)`)
    await write(sql`insert into stat_restart select n, case when n % 4 = 0 then 'rare' else 'common' end
      from generate_series(1, 8000) as n`)
    // An index built after the load sets the table's size, not its column statistics.
    await write(sql`reindex table stat_restart`)
    // As after a restart of PGlite: every change count is back at zero.
    await database.db.execute(sql`select pg_stat_reset()`)
    expect(await analyzeStaleTables(database.db)).toContain('stat_restart')
    expect(await analyzeStaleTables(database.db)).not.toContain('stat_restart')

    // Grown to three times its pages since that analysis, with the counts lost again.
    await write(sql`insert into stat_restart select n, 'common' from generate_series(1, 16000) as n`)
    await database.db.execute(sql`select pg_stat_reset()`)
    expect(await analyzeStaleTables(database.db)).toContain('stat_restart')
    expect(await plannerRows('stat_restart')).toBe(24000)
    expect(await analyzeStaleTables(database.db)).not.toContain('stat_restart')
  })

  it('analyzes the mirror tables a sync fills (registration, with its trigger-kept aggregates)', async () => {
    await writeDispatch('stat', 3000, 'completed')
    const analyzed = await analyzeStaleTables(database.db)
    expect(analyzed).toEqual(expect.arrayContaining(['registration', 'dispatch_learner', 'company_learner']))
    expect(await plannerRows('registration')).toBe(3000)
  })
})

describe('the visibility map index-only scans need (migrations 0017 and 0023, no autovacuum needed)', () => {
  const visibility = async () => {
    const [row] = await rows(sql`select relpages, relallvisible from pg_class where relname = 'company_learner'`)
    return { pages: Number(row!.relpages), allVisible: Number(row!.relallvisible) }
  }

  it('vacuums company_learner and dispatch when their visibility map covers under half, then leaves them alone', async () => {
    await writeDispatch('vac', 2000, 'incomplete')
    await write(sql`
      insert into dispatch (id, course_id, destination_id, destination_name, course_title)
      select 'vac-dispatch-' || n, 'vac-course', 'vac-co', 'vac Co', 'vac Course' from generate_series(1, 500) as n`)
    // Written, never vacuumed (as after the rewrites of 0017 and 0023, which analyzes dispatch):
    // the planner sees no page all-visible.
    await database.db.execute(sql`analyze company_learner`)
    await database.db.execute(sql`analyze dispatch`)
    const before = await visibility()
    expect(before.pages).toBeGreaterThan(0)
    expect(before.allVisible).toBeLessThan(before.pages / 2)

    expect(await vacuumForIndexOnlyScans(database.db)).toEqual(['company_learner', 'dispatch'])
    const after = await visibility()
    expect(after.allVisible).toBe(after.pages)
    expect(await vacuumForIndexOnlyScans(database.db)).toEqual([])
  })

  it("vacuums the log's month partitions a search reads index-only, and only those under half visible", async () => {
    await database.db.execute(sql`select activity_log_ensure_months(current_date, current_date)`)
    await write(sql`
      insert into activity_log (created_at, action, details)
      select now(), 'PAGE_VIEWED', jsonb_build_object('page', 'Page ' || g) from generate_series(1, 3000) as g`)
    const [month] = rowsOf<{ name: string }>(
      await database.db.execute(sql`select tableoid::regclass::text as name from activity_log limit 1`),
    )
    await database.db.execute(sql.raw(`analyze ${month!.name}`))
    expect(await vacuumForIndexOnlyScans(database.db)).toEqual([month!.name])
    expect(await vacuumForIndexOnlyScans(database.db)).toEqual([])
  })
})
