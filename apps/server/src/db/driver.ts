import { createHash } from 'node:crypto'
import type { PGlite, Transaction as PgliteTransaction } from '@electric-sql/pglite'
import type { Logger } from 'drizzle-orm'
import type pg from 'pg'
import type { DbOrTx, Tx } from './client'

/**
 * The driver under a Db or a transaction, on its public API: a node-postgres Pool or PoolClient
 * (`query` with a `name` for a prepared statement), PGlite (the same, through PGlite's own
 * node-postgres connection) or a PGlite transaction (`query`).
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
      const name = keptName(text)
      const result = await client.query<Record<string, unknown>>(
        name ? { text, values: params, name } : { text, values: params },
      )
      return result.rows
    },
  }
}

/**
 * One node-postgres client per PGlite instance, on a connection that hands each statement's
 * messages to PGlite in one call (db/pglite-connection.ts), for the statements kept prepared by
 * name. PGlite's `query` parses and plans every statement afresh
 * (and planning reads each table's size from its data folder); a prepared statement is parsed
 * once and, like on PostgreSQL, planned once when its generic plan is as good. One client per
 * instance, since the names live in PGlite's single session.
 *
 * Statements over VALUE_PLANNED_TABLES are kept too, but planned for their values on every run
 * (`plan_cache_mode = force_custom_plan`): PGlite's `query` spends more on its protocol steps
 * (parse, two describes, bind, each a call into PostgreSQL) than on planning, so a kept
 * statement planned afresh still costs a fraction of an unnamed one, and never gets the generic
 * plan that walks a large dispatch or company. The mode is a setting of the session, changed
 * only when the next statement needs the other one (`custom` notes the current one).
 */
interface KeptClient {
  client: pg.Client
  custom: boolean
}

const keptClients = new WeakMap<PGlite, Promise<KeptClient>>()

function keptClientOf(pglite: PGlite): Promise<KeptClient> {
  let kept = keptClients.get(pglite)
  if (!kept) {
    // Loaded on first use, as the PostgreSQL driver is by client.ts: this module stays free of both drivers.
    kept = Promise.all([import('pg'), import('./pglite-connection')]).then(
      async ([{ default: pgModule }, { BatchingPgliteConnection }]) => {
        const connection = new BatchingPgliteConnection(pglite)
        // node-postgres takes a ready connection in place of a socket's (not in its ClientConfig type).
        const client = new pgModule.Client({ connection } as pg.ClientConfig)
        // A call into PGlite that throws (a closed or broken instance) fails the statement and
        // leaves the client unusable: it is forgotten, and the next statement makes another.
        // Without a listener, node-postgres would throw the error from its client and end the
        // process.
        client.on('error', () => {
          if (keptClients.get(pglite) === kept) keptClients.delete(pglite)
        })
        await client.connect()
        // The session may still hold the names and plan mode of a client forgotten after an error.
        await underLocks(pglite, () => client.query('deallocate all; set plan_cache_mode = auto'))
        return { client, custom: false }
      },
    )
    keptClients.set(pglite, kept)
  }
  return kept
}

/** Runs a kept statement under the plan mode its tables need (see KeptClient). */
async function runKept(kept: KeptClient, name: string, text: string, params: unknown[]) {
  const custom = VALUE_PLANNED_TABLES.test(text)
  if (custom !== kept.custom) {
    await kept.client.query(`set plan_cache_mode = ${custom ? 'force_custom_plan' : 'auto'}`)
    kept.custom = custom
  }
  return (await kept.client.query({ name, text, values: params })).rows
}

/** Runs `run` under PGlite's own locks, as its `query` takes them (see pgliteDriver). */
function underLocks<T>(pglite: PGlite, run: () => Promise<T>): Promise<T> {
  return pglite._runExclusiveTransaction(() => pglite._runExclusiveQuery(run))
}

const isInstance = (client: PGlite | PgliteTransaction): client is PGlite =>
  typeof (client as Partial<PGlite>)._runExclusiveQuery === 'function'

export function pgliteDriver(client: PGlite | PgliteTransaction, logger?: Logger): Driver {
  // A transaction's statements run on its handle, unprepared: the kept client would wait for it.
  const instance = isInstance(client) ? client : null
  return {
    async rows(text, params) {
      logger?.logQuery(text, params)
      const name = instance ? statementName(text) : undefined
      if (!instance || !name) return (await client.query<Record<string, unknown>>(text, params)).rows
      const kept = await keptClientOf(instance)
      // The kept client's connection sends its messages without PGlite's locks: taken here
      // as PGlite's own query takes them, so the statement neither runs inside another caller's
      // transaction nor between the messages of another statement (nor after another's change
      // of the plan mode).
      return underLocks(instance, () => runKept(kept, name, text, params))
    },
  }
}

/**
 * Statements reading these tables are planned for the values they run with: never prepared on
 * PostgreSQL, prepared but planned on every run on PGlite (KeptClient).
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
 * The name a statement is prepared under on a PostgreSQL connection: a hash of its text, the
 * same on every connection; none for a statement without parameters or one reading
 * VALUE_PLANNED_TABLES.
 */
export function preparedName(text: string, params: readonly unknown[]): string | undefined {
  return params.length === 0 ? undefined : keptName(text)
}

/**
 * The name of a kept statement (db/statement.ts), with or without parameters: its texts are
 * bounded by their shapes, and one without parameters (a staff list's kept summary) would
 * otherwise be planned on every run, which cost several times its run. None for
 * VALUE_PLANNED_TABLES.
 */
function keptName(text: string): string | undefined {
  return VALUE_PLANNED_TABLES.test(text) ? undefined : statementName(text)
}

/**
 * Names by text, remembered: a kept statement's text (a few kilobytes for a page) is hashed once,
 * not on every run, which showed in CPU profiles of the server. The texts are the kept
 * statements' (bounded by their shapes); the map starts again if other texts ever fill it.
 */
const names = new Map<string, string>()
const NAMES_KEPT = 5_000

function statementName(text: string): string {
  let name = names.get(text)
  if (name === undefined) {
    name = `s${createHash('sha1').update(text).digest('base64url').slice(0, 22)}`
    if (names.size >= NAMES_KEPT) names.clear()
    names.set(text, name)
  }
  return name
}
