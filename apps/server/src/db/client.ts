import { createHash } from 'node:crypto'
import { PGlite } from '@electric-sql/pglite'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import * as schema from './schema'
import { migrateDatabase } from './migrate'

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
  /** Takes a session-level advisory lock if free; PGlite has one process, so always true. */
  tryLock(key: number): Promise<(() => Promise<void>) | null>
}

export interface DatabaseOptions {
  databaseUrl?: string | null
  /** PGlite data folder; omitted means in memory. */
  dataDir?: string | null
  /** An existing PGlite instance (tests clone a migrated template). */
  pglite?: PGlite
  migrate?: boolean
  poolSize?: number
}

export async function createDatabase(options: DatabaseOptions): Promise<Database> {
  const database = options.databaseUrl
    ? createPostgres(options.databaseUrl, options.poolSize ?? 10)
    : await createPglite(options)
  if (options.migrate !== false) await migrateDatabase(database)
  return database
}

function createPostgres(connectionString: string, max: number): Database & { pool: pg.Pool } {
  const pool = new pg.Pool({
    connectionString,
    max,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    statement_timeout: 30_000,
  })
  // A connection killed by the server must not crash the process; the pool replaces it.
  pool.on('error', () => {})
  pool.on('connect', (client) => prepareStatements(client))
  const db = drizzlePg({ client: pool, schema }) as unknown as Db
  return {
    kind: 'postgres',
    db,
    pool,
    async ping() {
      await pool.query('select 1')
    },
    async close() {
      await pool.end()
    },
    async tryLock(key) {
      const client = await pool.connect()
      try {
        const res = await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [key])
        if (!res.rows[0]?.locked) {
          client.release()
          return null
        }
      } catch (error) {
        client.release()
        throw error
      }
      return async () => {
        try {
          await client.query('select pg_advisory_unlock($1)', [key])
        } finally {
          client.release()
        }
      }
    },
  }
}

/** Distinct statements a connection keeps prepared; past this, new texts run unprepared. */
export const PREPARED_PER_CONNECTION = 500

/**
 * Every parameterised statement runs as a named prepared statement on its connection, named
 * by a hash of its text, as postgres.js and pgx do by default (issue #7): PostgreSQL parses a
 * text once per connection and, once it has seen it a few times, reuses its plan. Planning a
 * dispatch list page took 0.6 ms against 0.2 ms to run it, and /api/auth/me went from about
 * 1,600 to 4,000 requests per second with its check prepared. Statements without parameters
 * (migrations, SET) run as before; a connection prepares at most PREPARED_PER_CONNECTION texts.
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
    if (object && (object.name || typeof object.submit === 'function')) return config
    const text = object ? object.text : config
    const params = object?.values ?? values
    if (typeof text !== 'string' || !Array.isArray(params) || params.length === 0) return config
    const name = `s${createHash('sha1').update(text).digest('base64url').slice(0, 22)}`
    if (!prepared.has(name)) {
      if (prepared.size >= PREPARED_PER_CONNECTION) return config
      prepared.add(name)
    }
    return object ? { ...object, name } : { text, name }
  }
  client.query = ((config: unknown, values?: unknown, callback?: unknown) =>
    query(named(config, values), values, callback)) as typeof client.query
}

async function createPglite(options: DatabaseOptions): Promise<Database> {
  const client = options.pglite ?? new PGlite(options.dataDir ?? undefined)
  await client.waitReady
  const db = drizzlePglite({ client, schema }) as unknown as Db
  const held = new Set<number>()
  return {
    kind: 'pglite',
    db,
    async ping() {
      await db.execute(sql`select 1`)
    },
    async close() {
      if (!client.closed) await client.close()
    },
    async tryLock(key) {
      if (held.has(key)) return null
      held.add(key)
      return async () => {
        held.delete(key)
      }
    },
  }
}
