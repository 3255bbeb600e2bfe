import { index, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { companyRef, userRef } from './users'
import { createdAt, tz, uuidId } from './columns'

/**
 * API keys (migration 0031): only the key's SHA-256 is kept; `prefix` is its visible start and
 * the unique lookup of every call made with it. No company: the vendor's key (an admin's).
 */
export const apiKey = pgTable(
  'api_key',
  {
    id: uuidId(),
    companyId: companyRef('cascade'),
    createdBy: userRef('created_by', 'cascade').notNull(),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    secretHash: text('secret_hash').notNull(),
    scopes: jsonb('scopes').$type<string[]>().notNull(),
    expiresAt: tz('expires_at'),
    createdAt: createdAt(),
    rotatedAt: tz('rotated_at'),
    revokedAt: tz('revoked_at'),
    lastUsedAt: tz('last_used_at'),
    lastUsedIp: text('last_used_ip'),
  },
  (t) => [uniqueIndex('api_key_prefix_key').on(t.prefix), index('api_key_company_id_idx').on(t.companyId)],
)
