/**
 * The PGlite variant of the read data set, in a data folder the server then opens with
 * DATA_DIR: the server's own migrations, then the mirror copied from the PostgreSQL bench
 * database (every course, company and dispatch; the registrations of the big dispatch only),
 * and the activity log made with the same generate_series SQL as on PostgreSQL.
 */
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import type pg from 'pg'
import { createDatabase } from '../apps/server/src/db/client'
import { seedActivityLogs } from './seed-logs'
import { seedUsers, type BenchFixtures } from './seed-users'
import { pgliteRunner } from './sql-runner'

const BATCH = 20_000

/** Rows of `select` on PostgreSQL into `table` on PGlite, as JSON batches (no COPY client here). */
async function copyRows(source: pg.Client, target: PGlite, table: string, select: string): Promise<number> {
  const { rows } = await source.query<{ j: string }>(`select row_to_json(t)::text as j from (${select}) as t`)
  for (let i = 0; i < rows.length; i += BATCH) {
    const json = `[${rows
      .slice(i, i + BATCH)
      .map((r) => r.j)
      .join(',')}]`
    await target.query(`insert into "${table}" select * from json_populate_recordset(null::"${table}", $1::json)`, [
      json,
    ])
  }
  return rows.length
}

export interface PgliteSeed {
  dataDir: string
  copied: Record<string, number>
  logRows: number
  ms: number
}

/**
 * `dataDir` is what the server gets as DATA_DIR; PGlite lives in its `pglite` folder, as the
 * server expects. Returns with the folder closed: only one process may open it.
 */
export async function seedPglite(
  source: pg.Client,
  dataDir: string,
  fixtures: BenchFixtures,
  logRows: number,
  progress: (line: string) => void,
): Promise<PgliteSeed> {
  const started = performance.now()
  mkdirSync(dataDir, { recursive: true })
  const db = new PGlite(path.join(dataDir, 'pglite'))
  const database = await createDatabase({ pglite: db })
  try {
    const copied: Record<string, number> = {}
    copied.course = await copyRows(source, db, 'course', 'select * from course')
    copied.company = await copyRows(source, db, 'company', 'select * from company')
    copied.dispatch = await copyRows(source, db, 'dispatch', 'select * from dispatch')
    // The counters come over with the dispatches: the copy must not add to them again.
    await db.exec('alter table registration disable trigger user')
    copied.registration = await copyRows(
      source,
      db,
      'registration',
      `select * from registration where dispatch_id = '${fixtures.bigDispatchId.replace(/'/g, "''")}'`,
    )
    await db.exec('alter table registration enable trigger user')
    // With the cursors, the server's start-up sync is incremental (nothing new), not a full one.
    copied.sync_cursor = await copyRows(source, db, 'sync_cursor', 'select * from sync_cursor')
    progress(`  PGlite: copied ${JSON.stringify(copied)}`)
    await seedActivityLogs(pgliteRunner(db), logRows, progress)
    progress('  PGlite: vacuum analyze')
    await db.exec('vacuum analyze')
    await seedUsers(pgliteRunner(db), fixtures)
    return { dataDir, copied, logRows, ms: performance.now() - started }
  } finally {
    await database.close()
  }
}
