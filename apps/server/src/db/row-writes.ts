import { and, eq, isNull, type SQL } from 'drizzle-orm'
import type { AnyPgColumn, PgTable, PgUpdateSetSource } from 'drizzle-orm/pg-core'
import type { DbOrTx } from './client'

/*
 * The small writes many repositories make alike, on a table with an `id` column (SQL stays in
 * db/ and the repositories).
 */

/**
 * Sets a row's one-time timestamp (a challenge spent, a flow consumed, a key revoked) to now,
 * only while it is still empty: false when the row is unknown or another request stamped it
 * first, so a replay or a race loses rather than repeating the action.
 */
export async function stampOnce<T extends PgTable & { id: AnyPgColumn }, K extends keyof T & string>(
  tx: DbOrTx,
  table: T,
  stamp: K,
  id: string,
): Promise<boolean> {
  const rows = await tx
    .update(table)
    .set({ [stamp]: new Date() } as PgUpdateSetSource<T>)
    .where(and(eq(table.id, id), isNull(table[stamp] as AnyPgColumn)))
    .returning({ id: table.id })
  return rows.length === 1
}

/** Deletes the rows `where` picks: false when there was none. */
export async function deleteWhere<T extends PgTable & { id: AnyPgColumn }>(
  tx: DbOrTx,
  table: T,
  where: SQL | undefined,
): Promise<boolean> {
  const rows = await tx.delete(table).where(where).returning({ id: table.id })
  return rows.length > 0
}
