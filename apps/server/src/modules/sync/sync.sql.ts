import { getTableColumns, sql, type SQL } from 'drizzle-orm'
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core'

/** SQL building blocks of the mirror upserts (sync.repository.ts). */

export interface UpsertCounts {
  created: number
  updated: number
  /** Sent but identical to the mirror (or older, for registrations): nothing written. */
  skipped: number
}

/** Above this many rows one statement is split, to stay far from PostgreSQL's 65,535 bind parameters. */
const CHUNK = 1_000

export const excluded = (column: PgColumn) => sql.raw(`excluded."${column.name}"`)

/**
 * `SET col = excluded.col` for the given columns, and a WHERE that lets the update through only
 * when at least one of them differs, so an unchanged item writes nothing: no new row version,
 * no `updated_at` bump (issue #3).
 */
export function changeOnly<T extends PgTable>(table: T, keys: readonly (keyof T['$inferInsert'] & string)[]) {
  const columns = getTableColumns(table) as Record<string, PgColumn>
  const picked = keys.map((k) => columns[k]!)
  const set = Object.fromEntries(keys.map((k) => [k, excluded(columns[k]!)])) as Record<string, SQL>
  const differs = sql`(${sql.join(picked, sql`, `)}) is distinct from (${sql.join(picked.map(excluded), sql`, `)})`
  return { set, differs }
}

/** Postgres sets xmax = 0 on a freshly inserted row version: tells created from updated. */
export const inserted = sql<boolean>`(xmax = 0)`

export function count(sent: number, returned: { inserted: boolean }[]): UpsertCounts {
  const created = returned.filter((r) => r.inserted).length
  return { created, updated: returned.length - created, skipped: sent - returned.length }
}

function add(a: UpsertCounts, b: UpsertCounts): UpsertCounts {
  return { created: a.created + b.created, updated: a.updated + b.updated, skipped: a.skipped + b.skipped }
}

export async function chunked<T>(rows: T[], write: (part: T[]) => Promise<UpsertCounts>): Promise<UpsertCounts> {
  let total: UpsertCounts = { created: 0, updated: 0, skipped: 0 }
  for (let i = 0; i < rows.length; i += CHUNK) total = add(total, await write(rows.slice(i, i + CHUNK)))
  return total
}

/** One row per id (the last one wins), since one INSERT may not touch a row twice. */
export function uniqueById<T extends { id: string }>(rows: T[], keep: (a: T, b: T) => T = (_a, b) => b): T[] {
  const byId = new Map<string, T>()
  for (const row of rows) {
    const seen = byId.get(row.id)
    byId.set(row.id, seen ? keep(seen, row) : row)
  }
  return [...byId.values()]
}
