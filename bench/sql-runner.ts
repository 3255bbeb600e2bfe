/** One tiny interface over pg and PGlite, so the seed SQL runs unchanged on both. */
import type { PGlite } from '@electric-sql/pglite'
import type pg from 'pg'

export interface SqlRunner {
  query<R extends Record<string, unknown>>(text: string, params?: unknown[]): Promise<{ rows: R[] }>
  /** Several statements in one round trip, no parameters. */
  exec(text: string): Promise<void>
}

export function pgRunner(client: pg.Client | pg.PoolClient): SqlRunner {
  return {
    query: async <R extends Record<string, unknown>>(text: string, params?: unknown[]) =>
      client.query<R>(text, params as unknown[]),
    exec: async (text) => {
      await client.query(text)
    },
  }
}

export function pgliteRunner(db: PGlite): SqlRunner {
  return {
    query: async <R extends Record<string, unknown>>(text: string, params?: unknown[]) =>
      db.query<R>(text, params as unknown[]),
    exec: async (text) => {
      await db.exec(text)
    },
  }
}
