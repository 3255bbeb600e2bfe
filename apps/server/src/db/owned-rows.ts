import { desc, eq, type SQL } from 'drizzle-orm'
import type { AnyPgColumn, PgTable, SelectedFields } from 'drizzle-orm/pg-core'
import type { DbOrTx } from './client'
import { appUser, company } from './schema'

/** A table of things a company or the vendor (no company) owns, made by a user: API keys, webhook subscriptions. */
type OwnedTable = PgTable & {
  id: AnyPgColumn
  companyId: AnyPgColumn
  createdBy: AnyPgColumn
  createdAt: AnyPgColumn
}

/** Which rows a caller sees: one company's (a client), or every owner's (an admin; no company given). */
export interface OwnerScope {
  companyId?: string
}

/** The rows of `scope`'s owner; undefined (no condition) for every owner. */
export const ownedBy = (table: OwnedTable, scope: OwnerScope): SQL | undefined =>
  scope.companyId === undefined ? undefined : eq(table.companyId, scope.companyId)

/**
 * The rows `where` picks, newest first, joined to their creator and their owner company so that
 * `columns` may read the creator's email and the company's shown name (the shared schemas'
 * CreatorFields and OwnerCompanyFields); both joins keep the rows whose user or company is gone.
 */
export async function selectOwned<Row>(
  tx: DbOrTx,
  table: OwnedTable,
  columns: SelectedFields,
  where: SQL | undefined,
): Promise<Row[]> {
  const rows = await tx
    .select(columns)
    .from(table)
    .leftJoin(appUser, eq(appUser.id, table.createdBy))
    .leftJoin(company, eq(company.id, table.companyId))
    .where(where)
    .orderBy(desc(table.createdAt), table.id)
  return rows as Row[]
}
