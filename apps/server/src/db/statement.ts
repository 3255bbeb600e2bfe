import { fillPlaceholders, is, Param, Placeholder, sql, type SQL } from 'drizzle-orm'
import { PgDialect } from 'drizzle-orm/pg-core'
import type { DbOrTx } from './client'
import { driverOf } from './driver'

/**
 * The one way the server runs SQL it tunes by hand: kept statements (below) run on the driver
 * (db/driver.ts), and `rowsOf` types the rows of a `db.execute(sql…)`. Everything else
 * goes through Drizzle's query builder.
 *
 * Statements built once per shape. Building a statement with Drizzle's `sql`
 * templates and turning it into text costs more than the rest of a list request in the server,
 * so a staff page costs about a third less of the server's CPU with its text built once. A statement is built with a placeholder for every
 * value (`sql.placeholder(name)`); what decides its shape (sort, order, which conditions, which
 * keys a role reads) is its key, and only booleans and integers the code chose may be written
 * into it as literals. Building refuses any other value, so no request's value can be kept in a
 * text another request reuses.
 */

const dialect = new PgDialect()

export interface CompiledStatement {
  text: string
  /** Placeholders (or parameters holding one), filled per run. */
  params: unknown[]
}

const holdsPlaceholder = (param: unknown) =>
  is(param, Placeholder) || (is(param, Param) && is(param.value, Placeholder))

/** A placeholder for each value a module's statements take, by name: `placeholders('id', 'limit').limit`. */
export function placeholders<const Name extends string>(...names: Name[]): { readonly [K in Name]: Placeholder<K> } {
  return Object.fromEntries(names.map((name) => [name, sql.placeholder(name)])) as {
    readonly [K in Name]: Placeholder<K>
  }
}

/**
 * The values a filter may leave out, as a kept statement takes them: in the input, the
 * placeholder of each value given (undefined for the others); the values themselves; and, in
 * the filter's order, whether each is given, which is part of the statement's shape.
 */
export function optionalValues<const Name extends string>(
  filter: { readonly [K in Name]?: unknown },
  holders: { readonly [K in Name]: Placeholder<K> },
  names: readonly Name[],
) {
  const input = {} as { [K in Name]: Placeholder<K> | undefined }
  const values = {} as { [K in Name]: unknown }
  for (const name of names) {
    input[name] = filter[name] ? holders[name] : undefined
    values[name] = filter[name]
  }
  return { input, values, shape: names.map((name) => Boolean(filter[name])) }
}

/** The statement's text and placeholders; throws when a value is not a placeholder. */
export function compileStatement(query: SQL): CompiledStatement {
  const { sql: text, params } = dialect.sqlToQuery(query)
  const bound = params.find((param) => !holdsPlaceholder(param))
  if (bound !== undefined) {
    throw new Error(`A statement kept for reuse takes its values as placeholders; found ${String(bound)} in ${text}`)
  }
  return { text, params }
}

/**
 * Built statements by key, at most `max` (the oldest first out): a key names a shape, and the
 * number of shapes is bounded by the code (sorts, orders, conditions), not by the requests.
 */
export function statementCache(max = 500) {
  const kept = new Map<string, CompiledStatement>()
  return {
    get(key: string, build: () => SQL): CompiledStatement {
      let statement = kept.get(key)
      if (!statement) {
        statement = compileStatement(build())
        if (kept.size >= max) kept.delete(kept.keys().next().value!)
        kept.set(key, statement)
      }
      return statement
    },
    get size() {
      return kept.size
    },
  }
}

/**
 * Runs a built statement with its values on the driver of `db` (the pool, a transaction's own
 * connection, PGlite or its transaction), prepared by name on PostgreSQL, logged by the
 * Database's logger. Rows come as the driver gives them: these statements return text, numbers
 * and booleans.
 */
export async function runStatement(
  db: DbOrTx,
  statement: CompiledStatement,
  values: Record<string, unknown>,
): Promise<Record<string, unknown>[]> {
  return driverOf(db).rows(statement.text, fillPlaceholders(statement.params, values))
}

/** A kept version (a bigint column, text on node-postgres) as a number; null when there is none. */
export const toVersion = (value: unknown): number | null =>
  value === null || value === undefined ? null : Number(value)

/**
 * The rows of a `db.execute(sql…)`, typed as the statement's aliases say. Both drivers answer
 * with `{ rows }`; Drizzle types the answer per driver, so its rows are named here once.
 */
export function rowsOf<T = Record<string, unknown>>(result: unknown): T[] {
  return (result as { rows: T[] }).rows
}

/** The rows of one statement run through Drizzle (`db.execute`), typed as its aliases say. */
export async function queryRows<T = Record<string, unknown>>(db: DbOrTx, query: SQL): Promise<T[]> {
  return rowsOf<T>(await db.execute(query))
}
