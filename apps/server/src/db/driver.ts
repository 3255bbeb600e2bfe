import { createHash } from 'node:crypto'
import type { PGlite } from '@electric-sql/pglite'
import type { Logger } from 'drizzle-orm'
import type pg from 'pg'
import type { DbOrTx, Tx } from './client'

/**
 * The driver under a Db or a transaction, on its public API: a node-postgres Pool or PoolClient
 * (`query` with a `name` for a prepared statement) or PGlite or a PGlite transaction (`query`).
 * db/statement.ts runs its kept statements here; queries built with Drizzle keep Drizzle's path.
 */
export interface Driver {
  /** Rows as the driver parses them; the statement is logged by the Database's logger first. */
  rows(text: string, params: unknown[]): Promise<Record<string, unknown>[]>
}

const DRIVER = Symbol('driver')
type WithDriver = { [DRIVER]?: Driver; $client?: unknown }

/**
 * The driver a Db or transaction runs on. A transaction must run its statements on its own
 * connection (PostgreSQL) or inside PGlite's transaction (PGlite runs nothing else meanwhile),
 * so every transaction this module opens carries its driver (withDriver). A Db made by Drizzle
 * elsewhere (a test on one pool client) runs on its public `$client`.
 */
export function driverOf(db: DbOrTx): Driver {
  const handle = db as unknown as WithDriver
  const driver = handle[DRIVER]
  if (driver) return driver
  if (handle.$client) return driverOn(handle.$client)
  throw new Error('This transaction was not opened by db/client.ts; its driver is unknown.')
}

export function markDriver<T extends DbOrTx>(handle: T, driver: Driver): T {
  Object.defineProperty(handle, DRIVER, { value: driver })
  return handle
}

/** Marks a transaction with its driver, and the savepoints it opens with the same one. */
export function withDriver(tx: Tx, driver: Driver): Tx {
  const nested = tx.transaction.bind(tx)
  tx.transaction = ((run: (inner: Tx) => Promise<unknown>) =>
    nested((inner) => run(withDriver(inner, driver)))) as Tx['transaction']
  return markDriver(tx, driver)
}

type PgQueryable = Pick<pg.Pool, 'query'>

/** PGlite (which has `exec`) or node-postgres; told apart without loading either driver here. */
function driverOn(client: unknown, logger?: Logger): Driver {
  if (typeof (client as Partial<PGlite>).exec === 'function') return pgliteDriver(client as PGlite, logger)
  return pgDriver(client as PgQueryable, logger)
}

export function pgDriver(client: PgQueryable, logger?: Logger): Driver {
  return {
    async rows(text, params) {
      logger?.logQuery(text, params)
      const name = preparedName(text, params)
      const result = await client.query<Record<string, unknown>>(
        name ? { text, values: params, name } : { text, values: params },
      )
      return result.rows
    },
  }
}

export function pgliteDriver(client: Pick<PGlite, 'query'>, logger?: Logger): Driver {
  return {
    async rows(text, params) {
      logger?.logQuery(text, params)
      return (await client.query<Record<string, unknown>>(text, params)).rows
    },
  }
}

/**
 * Statements reading these tables are planned for the values they run with, never prepared.
 * Their rows are skewed per key: one dispatch holds 100,000 registrations where the
 * average holds 20, one company 100,000 learners, a day of logs a few hundred where a year holds
 * two million. A prepared statement gets, after five runs, PostgreSQL's generic plan when its
 * estimate looks no worse, and that plan, made for the average dispatch or company, walked every
 * row of the big one, many times slower than the plan made for its values. (Planning every
 * statement instead costs the dispatch list much of its throughput: its plans are dear to make
 * and its generic ones are good.)
 */
export const VALUE_PLANNED_TABLES = /"(?:registration|company_learner|activity_log)"/

/**
 * The name a statement is prepared under on a connection: a hash of its text, the same on every
 * connection; none for a statement without parameters or one reading VALUE_PLANNED_TABLES.
 */
export function preparedName(text: string, params: readonly unknown[]): string | undefined {
  if (params.length === 0 || VALUE_PLANNED_TABLES.test(text)) return undefined
  return `s${createHash('sha1').update(text).digest('base64url').slice(0, 22)}`
}
