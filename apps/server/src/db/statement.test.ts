import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import { createTestDatabase, usingPostgres } from '../test/test-database'
import type pg from 'pg'
import { drizzle } from 'drizzle-orm/node-postgres'
import { drizzleDb, newPglite, type Database, type Db } from './client'
import { compileStatement, optionalValues, placeholders, rowsOf, runStatement, statementCache } from './statement'

let database: Database
beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(async () => database.close())

describe('statements built once per shape', () => {
  it('refuses a value that is not a placeholder, so no request can leave its value in a kept text', () => {
    expect(() => compileStatement(sql`select ${'acme'} as company`)).toThrow(/placeholders/)
    expect(() => compileStatement(sql`select ${sql.param(42)} as n`)).toThrow(/placeholders/)
    const kept = compileStatement(
      sql`select ${sql.placeholder('company')}::text as company, ${sql.raw('true')} as flag`,
    )
    expect(kept.params).toHaveLength(1)
  })

  it("gives a placeholder, a value and a shape key for each of a filter's optional values", () => {
    const P = placeholders('from', 'userId', 'action')
    const given = optionalValues({ from: new Date(0), userId: '', action: 'login' }, P, ['from', 'userId', 'action'])
    expect(given.input).toEqual({ from: P.from, userId: undefined, action: P.action })
    expect(given.values).toEqual({ from: new Date(0), userId: '', action: 'login' })
    expect(given.shape).toEqual([true, false, true])
    expect(optionalValues({}, P, ['action', 'from']).shape).toEqual([false, false])
  })

  it('runs one text with each request its own values, on the database in use', async () => {
    const statement = compileStatement(
      sql`select ${sql.param(sql.placeholder('n'))}::int * 2 as doubled, ${sql.placeholder('name')}::text as name`,
    )
    expect(await runStatement(database.db, statement, { n: 21, name: 'a "quoted" \\ name' })).toEqual([
      { doubled: 42, name: 'a "quoted" \\ name' },
    ])
    expect(await runStatement(database.db, statement, { n: 5, name: 'other' })).toEqual([
      { doubled: 10, name: 'other' },
    ])
    await expect(runStatement(database.db, statement, { n: 1 })).rejects.toThrow(/placeholder "name"/)
  })

  it('runs inside a transaction on its connection', async () => {
    await database.db.execute(sql`create table statement_probe (id int)`)
    const insert = compileStatement(
      sql`insert into statement_probe values (${sql.placeholder('id')}::int) returning id`,
    )
    await expect(
      database.db.transaction(async (tx) => {
        expect(await runStatement(tx, insert, { id: 7 })).toEqual([{ id: 7 }])
        throw new Error('roll back')
      }),
    ).rejects.toThrow('roll back')
    const count = compileStatement(sql`select count(*)::int as n from statement_probe`)
    expect(await runStatement(database.db, count, {})).toEqual([{ n: 0 }])
  })

  it('keeps at most its bound of shapes, building each once', () => {
    const cache = statementCache(2)
    let builds = 0
    const build = () => {
      builds += 1
      return sql`select 1`
    }
    cache.get('a', build)
    cache.get('a', build)
    cache.get('b', build)
    cache.get('c', build)
    expect(builds).toBe(3)
    expect(cache.size).toBe(2)
    cache.get('a', build) // evicted first, built again
    expect(builds).toBe(4)
  })

  it("logs a kept statement through the Database's logger, and runs it in a PGlite transaction on its handle", async () => {
    const pglite = newPglite()
    const logged: { text: string; params: unknown[] }[] = []
    const db = drizzleDb(pglite, { logQuery: (text, params) => logged.push({ text, params }) })
    try {
      const echo = compileStatement(sql`select ${sql.placeholder('v')}::int as v`)
      expect(await runStatement(db, echo, { v: 3 })).toEqual([{ v: 3 }])
      expect(logged).toContainEqual({ text: echo.text, params: [3] })
      await db.execute(sql`create table kept_probe (id int)`)
      const insert = compileStatement(sql`insert into kept_probe values (${sql.placeholder('id')}::int) returning id`)
      // PGlite runs nothing outside an open transaction: run on the instance, this would wait forever.
      await expect(
        db.transaction(async (tx) => {
          expect(await runStatement(tx, insert, { id: 1 })).toEqual([{ id: 1 }])
          throw new Error('roll back')
        }),
      ).rejects.toThrow('roll back')
      expect(rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from kept_probe`))).toEqual([
        { n: 0 },
      ])
    } finally {
      await pglite.close()
    }
  })

  it('prepares a kept statement by name on the database in use, so it is parsed once', async () => {
    const statement = compileStatement(sql`select ${sql.placeholder('n')}::int + 1 as next`)
    expect(await runStatement(database.db, statement, { n: 1 })).toEqual([{ next: 2 }])
    expect(await runStatement(database.db, statement, { n: 2 })).toEqual([{ next: 3 }])
    // On PostgreSQL the pool may run it on any of its connections: each holds it under the same name.
    const prepared = rowsOf<{ statement: string }>(
      await database.db.execute(sql`select statement from pg_prepared_statements`),
    ).map((row) => row.statement)
    if (!usingPostgres()) expect(prepared).toContain(statement.text)
  })

  it('prepares a kept statement without parameters too, so it is not planned on every run', async () => {
    const statement = compileStatement(sql`select ${sql.raw('41 + 1')} as kept_without_parameters`)
    expect(statement.params).toHaveLength(0)
    const preparedOn = async (db: Db) => {
      for (let run = 0; run < 3; run++)
        expect(await runStatement(db, statement, {})).toEqual([{ kept_without_parameters: 42 }])
      return rowsOf<{ statement: string }>(await db.execute(sql`select statement from pg_prepared_statements`)).map(
        (row) => row.statement,
      )
    }
    if (!usingPostgres()) {
      expect(await preparedOn(database.db)).toContain(statement.text)
      return
    }
    // On one connection of the pool, whose prepared statements are that session's.
    const client = await (database as Database & { pool: pg.Pool }).pool.connect()
    try {
      expect(await preparedOn(drizzle({ client }) as unknown as Db)).toContain(statement.text)
    } finally {
      client.release()
    }
  })

  it('on PGlite, keeps a statement over registrations prepared but plans it for its values on every run', async () => {
    const pglite = newPglite()
    const db = drizzleDb(pglite)
    try {
      await db.execute(sql`create table registration (id int, dispatch_id text)`)
      await db.execute(sql`create table kept_other (id int)`)
      const skewed = compileStatement(
        sql`select count(*)::int as n from "registration" where dispatch_id = ${sql.placeholder('dispatch')}::text`,
      )
      const other = compileStatement(
        sql`select count(*)::int as n from "kept_other" where id > ${sql.placeholder('min')}::int`,
      )
      // Alternated, so the plan mode changes back and forth between the two.
      for (let run = 0; run < 8; run++) {
        expect(await runStatement(db, skewed, { dispatch: `d${run}` })).toEqual([{ n: 0 }])
        expect(await runStatement(db, other, { min: run })).toEqual([{ n: 0 }])
      }
      const plans = rowsOf<{ statement: string; generic_plans: number; custom_plans: number }>(
        await db.execute(
          sql`select statement, generic_plans::int, custom_plans::int from pg_prepared_statements order by statement`,
        ),
      )
      const of = (text: string) => plans.find((p) => p.statement === text)
      expect(of(skewed.text)).toMatchObject({ generic_plans: 0, custom_plans: 8 })
      // The other statement still gets PostgreSQL's generic plan once it has seen a few runs.
      expect(of(other.text)?.generic_plans).toBeGreaterThan(0)
    } finally {
      await pglite.close()
    }
  })

  it('on PGlite, waits for an open transaction instead of running inside it', async () => {
    const pglite = newPglite()
    const db = drizzleDb(pglite)
    try {
      await db.execute(sql`create table wait_probe (id int)`)
      const count = compileStatement(
        sql`select count(*)::int as n from wait_probe where id > ${sql.placeholder('min')}::int`,
      )
      expect(await runStatement(db, count, { min: 0 })).toEqual([{ n: 0 }])
      let counted: Promise<Record<string, unknown>[]> | null = null
      await expect(
        db.transaction(async (tx) => {
          await tx.execute(sql`insert into wait_probe values (1)`)
          // Asked while the transaction is open: it must neither see the row nor end the transaction.
          counted = runStatement(db, count, { min: 0 })
          await new Promise((resolve) => setTimeout(resolve, 50))
          throw new Error('roll back')
        }),
      ).rejects.toThrow('roll back')
      expect(await counted).toEqual([{ n: 0 }])
      expect(rowsOf(await pglite.query('select count(*)::int as n from wait_probe'))).toEqual([{ n: 0 }])
    } finally {
      await pglite.close()
    }
  })
})
