import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { BatchingPgliteConnection } from './pglite-connection'

describe('BatchingPgliteConnection', () => {
  let pglite: PGlite
  let client: pg.Client

  beforeAll(async () => {
    pglite = new PGlite()
    await pglite.exec(`create table item (id int primary key, name text, note text, tags jsonb);
      insert into item select g, 'item ' || g, case when g % 2 = 0 then 'even' end, jsonb_build_array(g)
      from generate_series(1, 50) g;`)
    client = new pg.Client({ connection: new BatchingPgliteConnection(pglite) } as pg.ClientConfig)
    await client.connect()
  })

  afterAll(async () => {
    await client.end()
    await pglite.close()
  })

  const page = 'select id, name, note, tags from item where id > $1 order by id limit $2'

  it('answers a kept statement with the rows and types PGlite answers, on its first run and its next', async () => {
    const expected = (await pglite.query(page, [10, 3])).rows
    const first = await client.query({ name: 'page', text: page, values: [10, 3] })
    const again = await client.query({ name: 'page', text: page, values: [10, 3] })
    expect(first.rows).toEqual(expected)
    expect(again.rows).toEqual(expected)
    expect(first.rows[0]).toEqual({ id: 11, name: 'item 11', note: null, tags: [11] })
  })

  it("hands a statement's messages to PGlite in one call", async () => {
    await client.query({ name: 'page', text: page, values: [1, 1] })
    const calls = vi.spyOn(pglite, 'execProtocolStream')
    try {
      const { rows } = await client.query({ name: 'page', text: page, values: [20, 2] })
      expect(rows.map((row) => row.id)).toEqual([21, 22])
      // bind, describe, execute and sync: one buffer.
      expect(calls).toHaveBeenCalledTimes(1)
    } finally {
      calls.mockRestore()
    }
  })

  it("rejects a statement that fails with PostgreSQL's error, and the session goes on", async () => {
    await expect(client.query({ name: 'ratio', text: 'select 10 / $1::int as r', values: [0] })).rejects.toThrow(
      'division by zero',
    )
    expect((await client.query({ name: 'ratio', text: 'select 10 / $1::int as r', values: [5] })).rows).toEqual([
      { r: 2 },
    ])
    await expect(
      client.query({ name: 'bad', text: 'select nothing from item where id = $1', values: [1] }),
    ).rejects.toThrow('column "nothing" does not exist')
    expect((await client.query({ name: 'page', text: page, values: [49, 5] })).rows.map((row) => row.id)).toEqual([50])
  })

  it('runs a statement without parameters (the simple protocol) and changes settings', async () => {
    await client.query('set plan_cache_mode = force_custom_plan')
    expect((await client.query('show plan_cache_mode')).rows).toEqual([{ plan_cache_mode: 'force_custom_plan' }])
    await client.query('set plan_cache_mode = auto')
  })
})
