import { eq, sql } from 'drizzle-orm'
import { apiKey, appUser, company } from '../../db/schema'
import { companyShownName } from '../../db/columns'
import { compileStatement, placeholders, runStatement } from '../../db/statement'
import type { DbOrTx } from '../../db/client'

const P = placeholders('prefix')

/**
 * A bearer key's check, one look-up by the unique prefix: the key with its creator (only while
 * active: a suspended creator's keys stop, a deleted one's are gone with it) and, for a company
 * key, whether the company still allows keys. Revocation, expiry and the hash are judged by the
 * caller so each refusal is the same 401. Built once and prepared by name (db/statement.ts).
 */
const KEY_FOR_CALL = compileStatement(sql`
  select ${apiKey.id} as "id", ${apiKey.name} as "name", ${apiKey.prefix} as "prefix",
         ${apiKey.secretHash} as "secretHash", ${apiKey.scopes} as "scopes",
         ${apiKey.companyId} as "keyCompanyId", ${apiKey.expiresAt} as "expiresAt",
         ${apiKey.revokedAt} as "revokedAt",
         ${appUser.id} as "userId", ${appUser.email} as "email", ${appUser.username} as "username",
         ${appUser.name} as "userName", ${appUser.role} as "role", ${appUser.companyId} as "companyId",
         ${appUser.status} as "status", ${appUser.createdAt} as "createdAt", ${appUser.lastLogin} as "lastLogin",
         ${companyShownName} as "companyName", ${company.apiKeysAllowed} as "companyAllows"
  from ${apiKey}
  inner join ${appUser} on ${eq(appUser.id, apiKey.createdBy)} and ${appUser.status} = 'active'
  left join ${company} on ${eq(company.id, apiKey.companyId)}
  where ${eq(apiKey.prefix, P.prefix)}
  limit 1`)

export interface KeyForCall {
  id: string
  name: string
  prefix: string
  secretHash: string
  scopes: string[]
  keyCompanyId: string | null
  expiresAt: Date | null
  revokedAt: Date | null
  userId: string
  email: string
  username: string
  userName: string | null
  role: string
  companyId: string | null
  status: string
  createdAt: Date
  lastLogin: Date | null
  companyName: string | null
  companyAllows: boolean | null
}

export async function keyForCall(db: DbOrTx, prefix: string): Promise<KeyForCall | null> {
  const [row] = await runStatement(db, KEY_FOR_CALL, { prefix })
  if (!row) return null
  const r = row as unknown as KeyForCall & { scopes: unknown; expiresAt: unknown; revokedAt: unknown }
  const date = (v: unknown) => (v == null ? null : v instanceof Date ? v : new Date(String(v)))
  return {
    ...r,
    scopes: typeof r.scopes === 'string' ? (JSON.parse(r.scopes) as string[]) : (r.scopes as string[]),
    expiresAt: date(r.expiresAt),
    revokedAt: date(r.revokedAt),
  }
}
