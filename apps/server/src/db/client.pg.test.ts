import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type pg from 'pg'
import { createTestDatabase, usingPostgres } from '../test/test-database'
import { sql } from 'drizzle-orm'
import { PREPARED_PER_CONNECTION, type Database } from './client'
import { registration } from './schema'

// On PostgreSQL every parameterised statement runs prepared on its connection.
describe.runIf(usingPostgres())('statements prepared per connection (PostgreSQL)', () => {
  let database: Database & { pool?: pg.Pool }
  let client: pg.PoolClient

  beforeAll(async () => {
    database = await createTestDatabase()
    client = await database.pool!.connect()
  })
  afterAll(async () => {
    client.release()
    await database.close()
  })

  const prepared = async () =>
    (await client.query<{ statement: string }>('select statement from pg_prepared_statements')).rows.map(
      (r) => r.statement,
    )

  it('compiles no plan with JIT: every session of the pool starts with it off', async () => {
    expect((await client.query<{ jit: string }>('show jit')).rows).toEqual([{ jit: 'off' }])
  })

  it('prepares a parameterised text once and answers each call with its own parameters', async () => {
    const text = 'select $1::int + 1 as n'
    expect((await client.query<{ n: number }>(text, [1])).rows).toEqual([{ n: 2 }])
    expect((await client.query<{ n: number }>({ text, values: [41] })).rows).toEqual([{ n: 42 }])
    expect((await prepared()).filter((s) => s === text)).toHaveLength(1)
  })

  // A prepared statement gets a generic plan after five runs, and on the skewed
  // mirror that plan walked every registration of the big dispatch.
  it('plans a statement over registrations for its values on every run: never prepared', async () => {
    const { sql: text, params } = database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(registration)
      .where(sql`${registration.dispatchId} = ${'no-such-dispatch'}`)
      .toSQL()
    for (let i = 0; i < 7; i++)
      expect((await client.query<{ count: number }>(text, params)).rows).toEqual([{ count: 0 }])
    expect((await prepared()).filter((s) => s === text)).toEqual([])
  })

  it('leaves statements without parameters unprepared', async () => {
    await client.query('select 7 as unprepared_probe')
    expect((await prepared()).some((s) => s.includes('unprepared_probe'))).toBe(false)
  })

  it('stops preparing new texts past the per-connection limit, and still answers them', async () => {
    const before = (await prepared()).length
    for (let i = before; i < PREPARED_PER_CONNECTION + 3; i++) {
      const { rows } = await client.query<{ n: number }>(`select $1::int + ${i} as n`, [1])
      expect(rows[0]!.n).toBe(i + 1)
    }
    expect(await prepared()).toHaveLength(PREPARED_PER_CONNECTION)
  })
})
