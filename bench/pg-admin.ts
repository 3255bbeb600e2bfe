/** The bench database's life cycle and the table statistics the sync figures are read from. */
import pg from 'pg'
import { ADMIN_URL, BENCH_DB_NAME } from './config'

/** Drops and creates `portal_bench` on the DATABASE_URL server: every run starts empty. */
export async function recreateBenchDatabase(): Promise<void> {
  await recreateDatabase(BENCH_DB_NAME)
}

/** Drops and creates the database `name` on the DATABASE_URL server; its connection string. */
export async function recreateDatabase(name: string): Promise<string> {
  await withClient(ADMIN_URL, async (admin) => {
    await admin.query(`drop database if exists ${name} with (force)`)
    await admin.query(`create database ${name}`)
  })
  return databaseUrlOf(name)
}

export function databaseUrlOf(name: string): string {
  const url = new URL(ADMIN_URL)
  url.pathname = `/${name}`
  return url.toString()
}

export interface TableWrites {
  inserted: number
  updated: number
  deleted: number
}

/**
 * Rows written per table since the statistics were reset, from pg_stat_user_tables. Backends
 * report their counters when their transaction ends (at most once a second) and always when
 * they exit, so read this after the writing process has closed its connections.
 */
export async function tableWrites(url: string): Promise<Record<string, TableWrites>> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    // A fresh snapshot: within one transaction PostgreSQL would otherwise keep the first one.
    await client.query('select pg_stat_clear_snapshot()')
    const { rows } = await client.query<{ relname: string; ins: string; upd: string; del: string }>(
      'select relname, n_tup_ins as ins, n_tup_upd as upd, n_tup_del as del from pg_stat_user_tables',
    )
    return Object.fromEntries(
      rows.map((r) => [r.relname, { inserted: Number(r.ins), updated: Number(r.upd), deleted: Number(r.del) }]),
    )
  } finally {
    await client.end()
  }
}

/** after - before, per table, leaving out tables nothing was written to. */
export function writesBetween(
  before: Record<string, TableWrites>,
  after: Record<string, TableWrites>,
): Record<string, TableWrites> {
  const out: Record<string, TableWrites> = {}
  for (const [table, a] of Object.entries(after)) {
    const b = before[table] ?? { inserted: 0, updated: 0, deleted: 0 }
    const d = { inserted: a.inserted - b.inserted, updated: a.updated - b.updated, deleted: a.deleted - b.deleted }
    if (d.inserted || d.updated || d.deleted) out[table] = d
  }
  return out
}

export async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}
