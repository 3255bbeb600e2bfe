import { and, eq, isNull, type SQL } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { stampOnce } from '../../db/row-writes'
import { apiKey, appUser, company } from '../../db/schema'
import { companyShownName } from '../../db/columns'
import { ownedBy, selectOwned, type OwnerScope } from '../../db/owned-rows'
import { keyForCall } from './api-keys.sql'

export interface ApiKeyRow {
  id: string
  name: string
  prefix: string
  scopes: string[]
  companyId: string | null
  companyName: string | null
  createdBy: string | null
  createdAt: Date
  expiresAt: Date | null
  rotatedAt: Date | null
  revokedAt: Date | null
  lastUsedAt: Date | null
  lastUsedIp: string | null
}

export interface NewApiKey {
  companyId: string | null
  createdBy: string
  name: string
  prefix: string
  secretHash: string
  scopes: string[]
  expiresAt: Date | null
}

const listColumns = {
  id: apiKey.id,
  name: apiKey.name,
  prefix: apiKey.prefix,
  scopes: apiKey.scopes,
  companyId: apiKey.companyId,
  companyName: companyShownName,
  createdBy: appUser.email,
  createdAt: apiKey.createdAt,
  expiresAt: apiKey.expiresAt,
  rotatedAt: apiKey.rotatedAt,
  revokedAt: apiKey.revokedAt,
  lastUsedAt: apiKey.lastUsedAt,
  lastUsedIp: apiKey.lastUsedIp,
}

/** API keys (service accounts): their rows, never their secrets (only hashes are stored). */
export function createApiKeysRepository(db: DbOrTx) {
  const select = (where: SQL | undefined, tx: DbOrTx) => selectOwned<ApiKeyRow>(tx, apiKey, listColumns, where)
  return {
    /** Every key (companyId undefined), or one company's. */
    async list(scope: OwnerScope, tx: DbOrTx = db): Promise<ApiKeyRow[]> {
      return select(ownedBy(apiKey, scope), tx)
    },
    /** One key, within one company when given (a client's view); null when out of scope. */
    async find(id: string, scope: OwnerScope, tx: DbOrTx = db): Promise<ApiKeyRow | null> {
      const rows = await select(and(eq(apiKey.id, id), ownedBy(apiKey, scope)), tx)
      return rows[0] ?? null
    },
    async insert(key: NewApiKey, tx: DbOrTx = db): Promise<string> {
      const [row] = await tx.insert(apiKey).values(key).returning({ id: apiKey.id })
      return row!.id
    },
    /** A new secret for a key not revoked: the old one stops at once (its prefix and hash are replaced). */
    async rotate(id: string, next: { prefix: string; secretHash: string }, tx: DbOrTx = db): Promise<boolean> {
      const rows = await tx
        .update(apiKey)
        .set({ ...next, rotatedAt: new Date() })
        .where(and(eq(apiKey.id, id), isNull(apiKey.revokedAt)))
        .returning({ id: apiKey.id })
      return rows.length > 0
    },
    async revoke(id: string, tx: DbOrTx = db): Promise<boolean> {
      return stampOnce(tx, apiKey, 'revokedAt', id)
    },
    async touch(id: string, ip: string, tx: DbOrTx = db): Promise<void> {
      await tx.update(apiKey).set({ lastUsedAt: new Date(), lastUsedIp: ip }).where(eq(apiKey.id, id))
    },
    /** Whether the company allows its users keys; null when there is no such company. */
    async companyAllows(companyId: string, tx: DbOrTx = db): Promise<boolean | null> {
      const [row] = await tx
        .select({ allowed: company.apiKeysAllowed })
        .from(company)
        .where(eq(company.id, companyId))
        .limit(1)
      return row ? row.allowed : null
    },
    async setCompanyAllows(companyId: string, allowed: boolean, tx: DbOrTx = db): Promise<boolean> {
      const rows = await tx
        .update(company)
        .set({ apiKeysAllowed: allowed })
        .where(eq(company.id, companyId))
        .returning({ id: company.id })
      return rows.length > 0
    },
    keyForCall: (prefix: string, tx: DbOrTx = db) => keyForCall(tx, prefix),
  }
}
export type ApiKeysRepository = ReturnType<typeof createApiKeysRepository>
