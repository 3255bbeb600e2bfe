import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type pg from 'pg'
import { createTestDatabase, usingPostgres } from '../test/test-database'
import { PLANNER_OPTIONS, PREPARED_PER_CONNECTION, connectionConfig, type Database } from './client'

// Issue #7: on PostgreSQL every parameterised statement runs prepared on its connection.
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

  it('prepares a parameterised text once and answers each call with its own parameters', async () => {
    const text = 'select $1::int + 1 as n'
    expect((await client.query<{ n: number }>(text, [1])).rows).toEqual([{ n: 2 }])
    expect((await client.query<{ n: number }>({ text, values: [41] })).rows).toEqual([{ n: 42 }])
    expect((await prepared()).filter((s) => s === text)).toHaveLength(1)
  })

  // Issue #13: PostgreSQL's default switches a prepared statement to a generic plan after five
  // runs; on the skewed mirror that plan walked the whole big dispatch.
  it('plans a prepared statement for its values on every run, never with a generic plan', async () => {
    const text = 'select $1::int * 2 as n'
    for (let i = 1; i <= 8; i++) expect((await client.query<{ n: number }>(text, [i])).rows).toEqual([{ n: i * 2 }])
    const { rows } = await client.query<{ generic: string; custom: string }>(
      'select generic_plans::text as generic, custom_plans::text as custom from pg_prepared_statements where statement = $1',
      [text],
    )
    expect(rows).toEqual([{ generic: '0', custom: '8' }])
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

describe('connection settings', () => {
  it('adds the planner options to a URL without options of its own', () => {
    expect(connectionConfig('postgres://u@127.0.0.1:5432/db')).toEqual({
      connectionString: 'postgres://u@127.0.0.1:5432/db',
      options: PLANNER_OPTIONS,
    })
  })

  it("keeps a URL's own options and adds the planner options after them", () => {
    const { connectionString, options } = connectionConfig('postgres://u@h/db?options=-c%20search_path%3Dx')
    expect(options).toBeUndefined()
    expect(new URL(connectionString).searchParams.get('options')).toBe(`-c search_path=x ${PLANNER_OPTIONS}`)
  })

  it('passes the planner options beside a key=value connection string', () => {
    expect(connectionConfig('host=127.0.0.1 dbname=test')).toEqual({
      connectionString: 'host=127.0.0.1 dbname=test',
      options: PLANNER_OPTIONS,
    })
  })
})
