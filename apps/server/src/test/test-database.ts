import { randomBytes } from 'node:crypto'
import type { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { inject } from 'vitest'
import { createDatabase, drizzleDb, newPglite, type Database, type Db } from '../db/client'
import { installJobSchema } from '../db/job-database'

let pgliteTemplate: Promise<PGlite> | null = null

/** One migrated PGlite per worker; every test database is a clone of it (STACK.md). */
async function migratedPglite(): Promise<PGlite> {
  pgliteTemplate ??= (async () => {
    const template = newPglite()
    const database = await createDatabase({ pglite: template })
    await installJobSchema(database.jobTarget)
    return template
  })()
  return pgliteTemplate
}

export const usingPostgres = () => process.env.TEST_DB_KIND === 'postgres'

/** A fresh, migrated, empty database for one test file or suite. Close it when done. */
export async function createTestDatabase(): Promise<Database> {
  if (!usingPostgres()) {
    const clone = (await (await migratedPglite()).clone()) as PGlite
    return createDatabase({ pglite: clone, migrate: false })
  }
  const url = process.env.TEST_DATABASE_URL!
  const name = `portal_test_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  try {
    await admin.query(`create database ${name} template ${inject('pgTemplateDb')}`)
  } finally {
    await admin.end()
  }
  const target = new URL(url)
  target.pathname = `/${name}`
  const database = await createDatabase({ databaseUrl: target.toString(), migrate: false, poolSize: 5 })
  return {
    ...database,
    async close() {
      await database.close()
      const dropper = new pg.Client({ connectionString: url })
      await dropper.connect()
      try {
        await dropper.query(`drop database if exists ${name} with (force)`)
      } finally {
        await dropper.end()
      }
    },
  }
}

/** A statement a logging Db ran: its text and parameters. */
export interface LoggedStatement {
  text: string
  params: unknown[]
}

/**
 * A Db on the test database's own driver (pool or PGlite) that records every statement it runs
 * in `logged`, kept statements included: for tests that assert which statements a read ran.
 */
export function loggingDb(database: Database, logged: LoggedStatement[]): Db {
  const client = (database as Database & { pool?: pg.Pool }).pool ?? (database.jobTarget as { client: PGlite }).client
  return drizzleDb(client, { logQuery: (text, params) => logged.push({ text, params }) })
}
