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
    await setIndexesAside(database.db, 'registration')
    const [first] = before.filter((i) => i.indexname !== 'registration_pkey')
    await database.db.execute(sql.raw(first!.indexdef))
    // Two at a time, each with its own note.
    expect(await restoreIndexes(database.db, 'registration', 2)).toBe(before.length - 1)
    expect(await indexes('registration')).toEqual(before)

    await database.db.execute(sql`create unique index aside_probe_idx on course (title, id)`)
    await setIndexesAside(database.db, 'course')
    expect((await indexes('course')).map((i) => i.indexname)).toContain('aside_probe_idx')
    await restoreIndexes(database.db, 'course')
  })
})
