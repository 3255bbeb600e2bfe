import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import type { PgliteDatabase } from 'drizzle-orm/pglite'
import type { NodePgDatabase } from 'drizzle-orm/node-postgres'
import type { Database } from './client'
import { vacuumForIndexOnlyScans } from './visibility'

export const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations')

/** Any fixed number: serialises migrations when several server processes start together. */
const MIGRATION_LOCK = 7_210_001

/** Applies the numbered SQL migrations (forward only) on PGlite or PostgreSQL. */
export async function migrateDatabase(database: Database): Promise<void> {
  const config = { migrationsFolder: MIGRATIONS_DIR }
  if (database.kind === 'pglite') {
    await migratePglite(database.db as unknown as PgliteDatabase, config)
    await afterMigrating(database)
    return
  }
  let lock = await database.tryLock(MIGRATION_LOCK)
  while (!lock) {
    await new Promise((resolve) => setTimeout(resolve, 200))
    lock = await database.tryLock(MIGRATION_LOCK)
  }
  try {
    await migratePg(database.db as unknown as NodePgDatabase, config)
    await afterMigrating(database)
  } finally {
    await lock.release()
  }
}

/**
 * A table a migration rewrote has no visibility map until vacuumed (db/visibility.ts), which a
 * migration cannot do (they run in a transaction). Best effort: without it the reads are right,
 * only slower until a vacuum.
 */
async function afterMigrating(database: Database) {
  try {
    await vacuumForIndexOnlyScans(database.db)
  } catch (error) {
    process.emitWarning(`VACUUM after migrating failed: ${error instanceof Error ? error.message : String(error)}`)
  }
}
