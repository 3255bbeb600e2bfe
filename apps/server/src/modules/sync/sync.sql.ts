import { getTableColumns, getTableName, sql, type SQL } from 'drizzle-orm'
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core'
import type { DbOrTx } from '../../db/client'

/** SQL building blocks of the mirror upserts (sync.repository.ts). */

export interface UpsertCounts {
  created: number
  updated: number
  /** Sent but identical to the mirror (or older, for registrations): nothing written. */
  skipped: number
}

/** Rows per statement: one JSON parameter of about 0.5 MB at most for registrations. */
const CHUNK = 1_000

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`

export interface UpsertSpec {
  /**
   * Row properties written on insert and, when one differs, on conflict (the sync's own
   * columns). A key the rows do not carry reads as null (removedAt: a row seen again is back).
   */
  keys: readonly string[]
  /** Column property → SQL expression, on insert only (e.g. removedAt: 'null'). */
  insertExtra?: Record<string, string>
  /** Column property → SQL expression, set whenever the row is updated (e.g. syncedAt: 'now()'). */
  updateExtra?: Record<string, string>
  /** A further condition of the update, over the table's name and `excluded` (raw SQL). */
  updateWhere?: string
}

/**
 * Where an upsert reads its rows: its JSON parameter, or the rows `where` selects from `table`,
 * a table with the target's column names, in `orderBy`'s order (both raw SQL of our own).
 */
export type UpsertSource = { json: string } | { table: string; where: SQL; orderBy: string }

/**
 * `INSERT … SELECT FROM json_to_recordset($1) ON CONFLICT (id) DO UPDATE SET <keys> WHERE
 * <some key differs> RETURNING (xmax = 0)`: one statement per page whose text is made once per
 * table, with the page as one JSON parameter (property names as sent, dates as ISO strings).
 * A page of 100 registrations used to be a query builder run over 1,700 bound values, which
 * was half the CPU of a full sync. The parameter is `json`, read row by row as the insert goes,
 * not `jsonb`, which is first built whole as a binary document (a little dearer per page). An
 * unchanged row writes nothing: no new row version, no `updated_at` bump; xmax = 0 marks a
 * freshly inserted row version.
 *
 * `into` writes another table with the same columns (the registrations a first sync stages,
 * migration 0045); `upsertFrom` runs the same statement over rows read from such a table.
 */
export function recordsetUpsert<Row extends { id: string }>(table: PgTable, spec: UpsertSpec & { into?: string }) {
  const columns = getTableColumns(table) as Record<string, PgColumn>
  const column = (key: string) => {
    const c = columns[key]
    if (!c) throw new Error(`${getTableName(table)} has no column ${key}`)
    return c
  }
  const name = quote(spec.into ?? getTableName(table))
  const keys = spec.keys.filter((k) => k !== 'id')
  const fromJson = ['id', ...keys]
  const insertExtra = Object.entries(spec.insertExtra ?? {})
  const updateExtra = Object.entries(spec.updateExtra ?? {})
  const col = (key: string) => quote(column(key).name)
  const recordType = fromJson.map((k) => `${quote(k)} ${column(k).getSQLType()}`).join(', ')
  const updated = keys.map(col)
  const differs = `(${updated.map((c) => `${name}.${c}`).join(', ')}) is distinct from (${updated.map((c) => `excluded.${c}`).join(', ')})`
  const head = [
    `insert into ${name} (${[...fromJson, ...insertExtra.map(([k]) => k)].map(col).join(', ')})`,
    `select ${[...fromJson.map((k) => `r.${quote(k)}`), ...insertExtra.map(([, expr]) => expr)].join(', ')}`,
  ].join(' ')
  const tail = [
    `on conflict (${col('id')}) do update set`,
    [...updated.map((c) => `${c} = excluded.${c}`), ...updateExtra.map(([k, expr]) => `${col(k)} = ${expr}`)].join(
      ', ',
    ),
    `where ${differs}${spec.updateWhere ? ` and ${spec.updateWhere}` : ''}`,
    `returning (xmax = 0) as inserted`,
  ].join(' ')
  // Rows of a table with the target's columns, under the property names the JSON carries.
  const renamed = fromJson.map((k) => `${col(k)} as ${quote(k)}`).join(', ')
  const statement = (source: UpsertSource) =>
    'json' in source
      ? sql`${sql.raw(`${head} from json_to_recordset(`)}${source.json}${sql.raw(`::json) as r(${recordType}) ${tail}`)}`
      : sql`${sql.raw(`${head} from (select ${renamed} from ${source.table} where `)}${source.where}${sql.raw(
          ` order by ${source.orderBy}) as r ${tail}`,
        )}`

  const write = async (tx: DbOrTx, rows: Row[]): Promise<UpsertCounts> =>
    chunked(rows, async (part) => {
      const result = (await tx.execute(statement({ json: JSON.stringify(part) }))) as unknown as {
        rows: { inserted: boolean }[]
      }
      return count(part.length, result.rows)
    })
  /** The same upsert over the rows `where` selects from another table with the target's columns. */
  const upsertFrom = async (tx: DbOrTx, source: Exclude<UpsertSource, { json: string }>): Promise<number> => {
    const result = (await tx.execute(statement(source))) as unknown as { rows: unknown[] }
    return result.rows.length
  }
  return Object.assign(write, { upsertFrom })
}

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
