import { sql } from 'drizzle-orm'
import { fromDrizzle, fromPglite, PgBoss, type ConstructorOptions, type Db as JobDb } from 'pg-boss'
import type { DbOrTx, JobTarget } from './client'

/** The job engine's tables live in their own schema, next to the portal's. */
export const JOB_SCHEMA = 'pgboss'

/** Connections the job engine holds per PostgreSQL node, besides DATABASE_POOL_SIZE. */
export const JOB_POOL_SIZE = 4

/**
 * How pg-boss reaches the database. PostgreSQL: a small pool of its own, so job polling never
 * waits behind requests for a connection (and one more connection for LISTEN). PGlite: the
 * process's one instance through pg-boss's PGlite adapter, which runs parameterless
 * (multi-statement) text with `exec` and returns the rows of every statement.
 */
export function jobConnection(
  target: JobTarget,
): Pick<ConstructorOptions, 'db' | 'connectionString' | 'backend' | 'max' | 'schema' | 'useListenNotify'> {
  if (target.kind === 'pglite') return { db: fromPglite(target.client), backend: 'pglite', schema: JOB_SCHEMA }
  return {
    connectionString: target.connectionString,
    max: JOB_POOL_SIZE,
    schema: JOB_SCHEMA,
    // Workers on other nodes wake when a job is sent instead of at their next poll.
    useListenNotify: true,
  }
}

/** A transaction of the portal as pg-boss's `db` option: the job commits or rolls back with it. */
export function jobTransaction(tx: DbOrTx): JobDb {
  return fromDrizzle(tx as Parameters<typeof fromDrizzle>[0], sql)
}

/**
 * Creates (or brings up to date) the job engine's schema; the engine also does this when it
 * starts. Test templates call it once, so each copied test database starts with it in place.
 */
export async function installJobSchema(target: JobTarget): Promise<void> {
  const boss = new PgBoss({ ...jobConnection(target), supervise: false, schedule: false, migrate: true })
  boss.on('error', () => {})
  await boss.start()
  await boss.stop({ graceful: false, close: true })
}
