import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import type pg from 'pg'
import type { Database } from '../../db/client'
import { createTestDatabase, usingPostgres } from '../test-database'

/**
 * Reliability suite, (fast part; the server-process part is
 * processes/connection-loss.test.ts): connections the code holds checked out, the sync's
 * long-held advisory-lock client and a transaction's client, have their PostgreSQL backend
 * terminated. Before the fix the client's 'error' event had no listener and became an uncaught
 * exception (which vitest reports as a failed run); now the lock reports itself lost, the
 * transaction fails with the driver's error, and the pool serves the next query.
 */
const LOCK_KEY = 7_219_914

describe.runIf(usingPostgres())('PostgreSQL backends of checked-out clients terminated', () => {
  let database: Database & { pool?: pg.Pool }
  // What would have ended the server process: errors nobody listened for.
  const uncaught: unknown[] = []
  const record = (error: unknown) => uncaught.push(error)
  beforeAll(async () => {
    database = await createTestDatabase()
    process.on('uncaughtException', record)
  })
  afterAll(async () => {
    process.off('uncaughtException', record)
    await database?.close()
  })
  afterEach(async () => {
    await new Promise((r) => setTimeout(r, 50))
    expect(uncaught).toEqual([])
  })

  const terminate = (pid: number) => database.pool!.query('select pg_terminate_backend($1)', [pid])
  const lockHolder = async () => {
    const res = await database.pool!.query<{ pid: number }>(
      `select pid from pg_locks where locktype = 'advisory' and objid = $1 and granted
       and database = (select oid from pg_database where datname = current_database())`,
      [LOCK_KEY],
    )
    return res.rows[0]?.pid ?? null
  }
  const until = async (check: () => boolean) => {
    for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 20))
    return check()
  }

  it('reports the advisory lock lost, releases without throwing, and lets it be taken again', async () => {
    const lock = await database.tryLock(LOCK_KEY)
    expect(lock).not.toBeNull()
    expect(lock!.lost()).toBeNull()
    const pid = await lockHolder()
    expect(pid).not.toBeNull()
    await terminate(pid!)
    expect(await until(() => lock!.lost() !== null)).toBe(true)
    await expect(lock!.release()).resolves.toBeUndefined()
    // PostgreSQL dropped the lock with the session.
    const again = await database.tryLock(LOCK_KEY)
    expect(again).not.toBeNull()
    await again!.release()
    expect(await lockHolder()).toBeNull()
  })

  it('fails a transaction whose connection is killed with a connection error, and serves the next query', async () => {
    let pid = 0
    const failed = await database.db
      .transaction(async (tx) => {
        const res = (await tx.execute(sql`select pg_backend_pid() as pid`)) as unknown as { rows: { pid: number }[] }
        pid = res.rows[0]!.pid
        await terminate(pid)
        await new Promise((r) => setTimeout(r, 50))
        await tx.execute(sql`select 1`)
      })
      .then(
        () => null,
        (error: unknown) => error as Error,
      )
    expect(failed).toBeInstanceOf(Error)
    expect(String(failed!.message) + String((failed!.cause as Error | undefined)?.message ?? '')).toMatch(
      /terminat|connection error|Connection terminated/i,
    )
    const res = (await database.db.execute(sql`select pg_backend_pid() as pid`)) as unknown as {
      rows: { pid: number }[]
    }
    expect(res.rows[0]!.pid).not.toBe(pid)
  })

  it('gives every transaction client back when connections die under load (BEGIN failing included)', async () => {
    const pool = database.pool!
    let storming = true
    const storm = (async () => {
      while (storming) {
        await pool.query(
          `select pg_terminate_backend(pid) from pg_stat_activity
           where datname = current_database() and pid <> pg_backend_pid()`,
        )
        await new Promise((r) => setTimeout(r, 25))
      }
    })().catch(() => undefined)
    const failures = new Set<string>()
    const end = Date.now() + 1_500
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        while (Date.now() < end) {
          await database.db
            .transaction(async (tx) => {
              await tx.execute(sql`select pg_sleep(0.005)`)
              await tx.execute(sql`select 1`)
            })
            .catch((error: Error) => failures.add(error.message.split('\n')[0]!))
        }
      }),
    )
    storming = false
    await storm
    expect(failures.size).toBeGreaterThan(0)
    // Before the fix a failed BEGIN kept its client: the pool filled up with lost clients.
    expect(pool.totalCount).toBe(pool.idleCount)
    expect(await database.db.transaction(async (tx) => (await tx.execute(sql`select 1 as n`)) !== null)).toBe(true)
  })

  it('keeps working when an idle-in-pool client and a checked-out one die together', async () => {
    const held = await database.pool!.connect()
    try {
      const { rows } = await held.query<{ pid: number }>('select pg_backend_pid() as pid')
      await database.pool!.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
         where datname = current_database() and pid <> pg_backend_pid()`,
      )
      await expect(held.query('select 1')).rejects.toThrow()
      expect(rows[0]!.pid).toBeGreaterThan(0)
    } finally {
      held.release(true)
    }
    expect((await database.pool!.query<{ n: number }>('select 1 as n')).rows).toEqual([{ n: 1 }])
  })
})
