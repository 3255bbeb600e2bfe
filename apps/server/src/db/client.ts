import { PGlite, type Transaction as PgliteTransaction } from '@electric-sql/pglite'
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { drizzle as drizzlePg, NodePgSession } from 'drizzle-orm/node-postgres'
import { sql, type Logger } from 'drizzle-orm'
import pg from 'pg'
import * as schema from './schema'
import { migrateDatabase } from './migrate'
import { markDriver, pgDriver, pgliteDriver, preparedName, withDriver } from './driver'
import { SizeKeepingNodeFS } from './pglite-fs'

export { VALUE_PLANNED_TABLES, driverOf, type Driver } from './driver'

export type Schema = typeof schema
export type Db = PgDatabase<PgQueryResultHKT, Schema>
/** A transaction handle has the same query API as the database. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]
export type DbOrTx = Db | Tx

export interface Database {
  kind: 'pglite' | 'postgres'
  db: Db
  /** Cheap reachability check for /api/ready. */
  ping(): Promise<void>
  close(): Promise<void>
  /** Takes a session-level advisory lock if free (null when taken); PGlite has one process, so always free. */
  tryLock(key: number): Promise<HeldLock | null>
  /** Queries waiting for a connection now (backpressure); PGlite queues none. */
  waiting(): number
  /**
   * Where the job engine connects (db/job-database.ts): its own small pool on PostgreSQL, or this
   * process's PGlite instance, which can have no second connection.
   */
  jobTarget: JobTarget
}

/** A session-level advisory lock held on a connection of its own. */
export interface HeldLock {
  /** Unlocks and returns the connection; never throws (a broken connection is closed instead). */
  release(): Promise<void>
  /**
   * Set once the connection holding the lock failed (killed backend, restart, failover, network
   * cut): PostgreSQL has dropped the lock with the session, so another process may take it.
   */
  lost(): Error | null
}

export type JobTarget = { kind: 'postgres'; connectionString: string } | { kind: 'pglite'; client: PGlite }

export interface DatabaseOptions {
  databaseUrl?: string | null
  /** PGlite data folder; omitted means in memory. */
  dataDir?: string | null
  /** An existing PGlite instance (tests clone a migrated template). */
  pglite?: PGlite
  migrate?: boolean
  poolSize?: number
  /** Drizzle's query logger; the statements run by db/statement.ts are logged through it too. */
  logger?: Logger
}

/**
 * The Db of the server (createDatabase) or of a tool driving a pool or PGlite of its own (the
 * bench): Drizzle on the driver, its logger also logging the kept statements, and every
 * transaction carrying its driver.
 */
export function drizzleDb(client: pg.Pool | PGlite, logger?: Logger): Db {
  if (client instanceof PGlite) {
    const db = markDriver(drizzlePglite({ client, schema, logger }) as unknown as Db, pgliteDriver(client, logger))
    keepTransactionDrivers(db, client, logger)
    return db
  }
  const db = markDriver(drizzlePg({ client, schema, logger }) as unknown as Db, pgDriver(client, logger))
  releaseTransactionClients(db, client, logger)
  return db
}

export async function createDatabase(options: DatabaseOptions): Promise<Database> {
  const database = options.databaseUrl
    ? createPostgres(options.databaseUrl, options.poolSize ?? 10, options.logger)
    : await createPglite(options)
  if (options.migrate !== false) await migrateDatabase(database)
  return database
}

/**
 * The server's PostgreSQL session settings, sent when each connection starts. No JIT
 * compilation: the portal's statements read a page or a few thousand index entries, and where a
 * large table makes a plan's estimate cross PostgreSQL's JIT threshold (a search of a dispatch
 * with a million registrations), compiling the plan costs about as much as running it, on every
 * run.
 */
export const SESSION_OPTIONS = '-c jit=off'

function createPostgres(connectionString: string, max: number, logger?: Logger): Database & { pool: pg.Pool } {
  const pool = new pg.Pool({
    connectionString,
    max,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    statement_timeout: 30_000,
    options: SESSION_OPTIONS,
  })
  // A connection killed by the server must not crash the process; the pool replaces it.
  pool.on('error', () => {})
  pool.on('connect', (client) => {
    // The pool listens for errors on idle clients only and removes its listener on
    // checkout, and a pg client emits 'error' when its connection dies (pg_terminate_backend,
    // restart, failover, network cut). Unheard, that event was an uncaught exception that took
    // the process down. Every client keeps this listener for life: the query in flight fails by
    // itself (503 to the caller), and the pool drops the client when it is released.
    client.on('error', () => {})
    prepareStatements(client)
  })
  const db = drizzleDb(pool, logger)
  return {
    kind: 'postgres',
    db,
    pool,
    jobTarget: { kind: 'postgres', connectionString },
    async ping() {
      await pool.query('select 1')
    },
    waiting: () => pool.waitingCount,
    async close() {
      await pool.end()
    },
    async tryLock(key) {
      const client = await pool.connect()
      let lost: Error | null = null
      const onError = (error: Error) => {
        lost ??= error
      }
      client.on('error', onError)
      // Passing an error makes the pool close the connection instead of reusing it.
      const giveBack = (error?: Error) => {
        client.off('error', onError)
        client.release(error)
      }
      try {
        const res = await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [key])
        if (!res.rows[0]?.locked) {
          giveBack()
          return null
        }
      } catch (error) {
        giveBack(error as Error)
        throw error
      }
      let released = false
      return {
        lost: () => lost,
        async release() {
          if (released) return
          released = true
          if (lost) return giveBack(lost)
          try {
            await client.query('select pg_advisory_unlock($1)', [key])
            giveBack()
          } catch (error) {
            // Closing the session frees the lock too.
            giveBack(error as Error)
          }
        },
      }
    },
  }
}

type SessionArgs = ConstructorParameters<typeof NodePgSession>
/** The pool session's fields Drizzle keeps internal, and the method replaced below. */
interface PoolSession {
  dialect: SessionArgs[1]
  schema: SessionArgs[2]
  options: SessionArgs[3]
  transaction: NodePgSession<Schema, never>['transaction']
}

/**
 * Drizzle's pool transaction sends BEGIN before its try/finally, so when BEGIN failed
 * (the idle connection it got had just been killed) the client was never given back: after a few
 * killed connections the pool was full of lost clients and every request waited for the connect
 * timeout, for good. Here a transaction checks out its own client, runs Drizzle's transaction on
 * it (which then neither acquires nor releases), and always releases it; a client that failed is
 * closed rather than reused.
 */
function releaseTransactionClients(db: Db, pool: pg.Pool, logger?: Logger): void {
  const poolSession = db._.session as unknown as PoolSession
  poolSession.transaction = async (transaction, config) => {
    const client = await pool.connect()
    let failed: Error | undefined
    try {
      const session = new NodePgSession<Schema, never>(
        client,
        poolSession.dialect,
        poolSession.schema as never,
        poolSession.options,
      )
      // The transaction's statements run on its client, kept ones included (driverOf).
      const driver = pgDriver(client, logger)
      return await session.transaction((tx) => transaction(withDriver(tx as unknown as Tx, driver) as never), config)
    } catch (error) {
      // The transaction's own failure with a healthy connection: the client goes back as usual.
      if (!(client as unknown as { _queryable: boolean })._queryable) failed = error as Error
      throw error
    } finally {
      client.release(failed)
    }
  }
}

/** Distinct statements a connection keeps prepared; past this, new texts run unprepared. */
export const PREPARED_PER_CONNECTION = 500

/**
 * Every parameterised statement runs as a named prepared statement on its connection, named
 * by a hash of its text, as postgres.js and pgx do by default: PostgreSQL parses a
 * text once per connection and, once it has seen it a few times, reuses its plan. Planning a
 * dispatch list page costs more than running it, and the per-request session check is most of
 * what /api/auth/me costs, so both gain most from a kept plan (figures in bench/results/history.md).
 * Statements without parameters
 * (migrations, SET) and those of VALUE_PLANNED_TABLES run as before (unnamed: planned for their
 * values each time), but for db/statement.ts's kept statements, which the driver names with or
 * without parameters (db/driver.ts); a connection prepares at most PREPARED_PER_CONNECTION texts.
 */
export function prepareStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (config: unknown, values?: unknown, callback?: unknown) => unknown
  const prepared = new Set<string>()
  const named = (config: unknown, values: unknown): unknown => {
    if (config === null || (typeof config !== 'string' && typeof config !== 'object')) return config
    const object =
      typeof config === 'object'
        ? (config as { text?: unknown; values?: unknown; name?: unknown; submit?: unknown })
        : null
    if (typeof object?.submit === 'function') return config
    const text = object ? object.text : config
    const params = object?.values ?? values
    if (typeof text !== 'string' || !Array.isArray(params)) return config
    // A name given by the caller (db/statement.ts) counts towards the connection's bound too.
    const name = typeof object?.name === 'string' ? object.name : preparedName(text, params)
    if (!name) return config
    if (!prepared.has(name)) {
      if (prepared.size >= PREPARED_PER_CONNECTION) return object ? { ...object, name: undefined } : config
      prepared.add(name)
    }
    return object ? { ...object, name } : { text, name }
  }
  client.query = ((config: unknown, values?: unknown, callback?: unknown) =>
    query(named(config, values), values, callback)) as typeof client.query
}

/**
 * A PGlite instance with the contrib extensions the migrations use: pg_trgm for the
 * substring searches and btree_gin for the searches scoped to one dispatch, so the embedded
 * default has the same indexes and plans as PostgreSQL. Every PGlite of the project (server,
 * tests, bench) is made here.
 */
export function newPglite(dataDir?: string | null): PGlite {
  // A folder on disk keeps its files' sizes in memory (db/pglite-fs.ts); any other (`memory://`,
  // none) is PGlite's own.
  const where = !dataDir ? {} : dataDir.includes('://') ? { dataDir } : { fs: new SizeKeepingNodeFS(dataDir) }
  return new PGlite({ ...where, extensions: { pg_trgm, btree_gin } })
}

async function createPglite(options: DatabaseOptions): Promise<Database> {
  const client = options.pglite ?? newPglite(options.dataDir)
  await client.waitReady
  const db = drizzleDb(client, options.logger)
  const held = new Set<number>()
  return {
    kind: 'pglite',
    db,
    jobTarget: { kind: 'pglite', client },
    async ping() {
      await db.execute(sql`select 1`)
    },
    waiting: () => 0,
    async close() {
      if (!client.closed) await client.close()
    },
    async tryLock(key) {
      if (held.has(key)) return null
      held.add(key)
      return {
        lost: () => null,
        async release() {
          held.delete(key)
        },
      }
    },
  }
}

/**
 * PGlite runs one transaction at a time and nothing else meanwhile, so a statement of the
 * transaction must run on PGlite's transaction handle, not on the instance (which would wait
 * for the transaction to end). The handle open now is noted when PGlite begins, and handed as
 * the driver of the Drizzle transaction made on it.
 */
function keepTransactionDrivers(db: Db, client: PGlite, logger?: Logger): void {
  const open = openTransactionOf(client)
  const transaction = db.transaction.bind(db)
  db.transaction = ((run, config) =>
    transaction((tx) => {
      if (!open.current) throw new Error('A PGlite transaction began without its handle.')
      return run(withDriver(tx, pgliteDriver(open.current, logger)))
    }, config)) as Db['transaction']
}

const openTransactions = new WeakMap<PGlite, { current: PgliteTransaction | null }>()

/** The transaction PGlite runs now, noted as it begins (once per instance, however many Dbs). */
function openTransactionOf(client: PGlite): { current: PgliteTransaction | null } {
  let open = openTransactions.get(client)
  if (open) return open
  const noted: { current: PgliteTransaction | null } = { current: null }
  open = noted
  openTransactions.set(client, noted)
  const begin = client.transaction.bind(client)
  client.transaction = (async (callback: (tx: PgliteTransaction) => Promise<unknown>) =>
    begin(async (tx) => {
      noted.current = tx
      try {
        return await callback(tx)
      } finally {
        noted.current = null
      }
    })) as PGlite['transaction']
  return noted
}
