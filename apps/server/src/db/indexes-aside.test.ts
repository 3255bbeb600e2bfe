import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase } from '../test/test-database'
import type { Database } from './client'
import { indexesAside, restoreIndexes, setIndexesAside } from './indexes-aside'
import { rowsOf } from './statement'

let database: Database
beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(async () => {
  await database.close()
})

const indexes = async (table: string) =>
  rowsOf<{ indexname: string; indexdef: string }>(
    await database.db.execute(sql`select indexname, indexdef from pg_indexes where tablename = ${table} order by 1`),
  )
const foreignKeys = async (table: string) =>
  rowsOf<{ name: string; definition: string }>(
    await database.db.execute(sql`
      select conname as name, pg_get_constraintdef(oid) as definition from pg_constraint
      where conrelid = to_regclass(${table}) and contype = 'f' order by 1`),
  )

describe('indexes set aside while a table fills', () => {
  it('drops only the secondary indexes, notes them, and builds the same ones again', async () => {
    const before = await indexes('company_learner')
    expect(before.length).toBeGreaterThan(5)

    const aside = await setIndexesAside(database.db, 'company_learner')
    expect(aside).toBe(before.length - 1)
    expect((await indexes('company_learner')).map((i) => i.indexname)).toEqual(['company_learner_pkey'])
    expect(await indexesAside(database.db, 'company_learner')).toBe(true)
    expect(await indexesAside(database.db, 'registration')).toBe(false)
    // The primary key still refuses a duplicate: an upsert's conflict target stays.
    await database.db.execute(sql`insert into company (id, name) values ('aside-co', 'Aside Co')`)
    const learner = sql`insert into company_learner (company_id, learner_hash) values ('aside-co', 1)`
    await database.db.execute(learner)
    await expect(database.db.execute(learner)).rejects.toMatchObject({ cause: { code: '23505' } })

    expect(await restoreIndexes(database.db, 'company_learner')).toBe(before.length - 1)
    expect(await indexes('company_learner')).toEqual(before)
    expect(await indexesAside(database.db, 'company_learner')).toBe(false)
    expect(await restoreIndexes(database.db, 'company_learner')).toBe(0)
  })

  it('leaves alone an index made again meanwhile, and keeps unique indexes', async () => {
    const before = await indexes('registration')
    const keys = await foreignKeys('registration')
    expect(keys).toHaveLength(1)
    await setIndexesAside(database.db, 'registration')
    const [first] = before.filter((i) => i.indexname !== 'registration_pkey')
    await database.db.execute(sql.raw(first!.indexdef))
    // Two at a time, each with its own note; the foreign key counts as one.
    expect(await restoreIndexes(database.db, 'registration', 2)).toBe(before.length - 1 + keys.length)
    expect(await indexes('registration')).toEqual(before)
    expect(await foreignKeys('registration')).toEqual(keys)

    await database.db.execute(sql`create unique index aside_probe_idx on course (title, id)`)
    await setIndexesAside(database.db, 'course')
    expect((await indexes('course')).map((i) => i.indexname)).toContain('aside_probe_idx')
    await restoreIndexes(database.db, 'course')
  })

  it("sets aside a table's foreign keys and adds them again, refusing a row that breaks one", async () => {
    const keys = await foreignKeys('registration')
    await setIndexesAside(database.db, 'registration')
    expect(await foreignKeys('registration')).toEqual([])
    expect(await indexesAside(database.db, 'registration')).toBe(true)

    // Aside, the key checks nothing; adding it again finds the row that breaks it, and the note stays.
    await database.db.execute(sql`
      insert into registration (id, dispatch_id, course_id, completion_status, success_status)
      values ('aside-orphan', 'no-such-dispatch', 'no-such-course', 'unknown', 'unknown')`)
    await expect(restoreIndexes(database.db, 'registration')).rejects.toMatchObject({ cause: { code: '23503' } })
    expect(await foreignKeys('registration')).toEqual([])
    expect(await indexesAside(database.db, 'registration')).toBe(true)

    await database.db.execute(sql`delete from registration where id = 'aside-orphan'`)
    expect(await restoreIndexes(database.db, 'registration')).toBe(1)
    expect(await foreignKeys('registration')).toEqual(keys)
    expect(await indexesAside(database.db, 'registration')).toBe(false)
  })
})
