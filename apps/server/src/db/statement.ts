import { fillPlaceholders, is, Param, Placeholder, sql, type SQL } from 'drizzle-orm'
import { PgDialect } from 'drizzle-orm/pg-core'
import type { DbOrTx } from './client'

/**
 * Statements built once per shape (issue #13). Building a statement with Drizzle's `sql`
 * templates and turning it into text costs more than the rest of a list request in the server:
 * on the bench machine a staff page cost 1.5 to 1.9 ms of the server's CPU built every time,
 * 1.0 to 1.1 ms with its text built once. A statement is built with a placeholder for every
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

interface DriverSession {
  client: { query(text: string, params: unknown[]): Promise<{ rows: Record<string, unknown>[] }> }
  logger?: { logQuery(query: string, params: unknown[]): void }
}

/**
 * Runs a built statement with its values, straight on the driver of `db` (a pool, a pool client
 * in a transaction, or PGlite), as Drizzle's own session would, its logger included. Rows come as
 * the driver gives them: these statements return text, numbers and booleans.
 */
export async function runStatement(
  db: DbOrTx,
  statement: CompiledStatement,
  values: Record<string, unknown>,
): Promise<Record<string, unknown>[]> {
  const session = (db as unknown as { session: DriverSession }).session
  const params = fillPlaceholders(statement.params, values)
  session.logger?.logQuery(statement.text, params)
  return (await session.client.query(statement.text, params)).rows
}
