import { sql } from 'drizzle-orm'
import { boolean, check, index, integer, pgTable, text, uniqueIndex, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core'
import { createdAt, expiresAt, lowered, singleUse, timestamps, tz, uuidId } from './columns'

/*
 * Companies and their users in one file: each references the other (a client user's company,
 * a company's account manager), and one file keeps the import graph free of cycles.
 */

/** What a row naming a user or a company becomes when that user or company is deleted. */
type OnDelete = 'cascade' | 'set null'

/** A column naming a user (app_user.id). */
export const userRef = (name: string, onDelete: OnDelete) => uuid(name).references(() => appUser.id, { onDelete })

/** `company_id`, naming a company (company.id). */
export const companyRef = (onDelete: OnDelete) => text('company_id').references(() => company.id, { onDelete })

/** A client company = a SCORM Cloud destination; its id is the destination id. */
export const company = pgTable(
  'company',
  {
    id: text('id').primaryKey(),
    /** Provider-owned: the destination's name, overwritten by every sync. */
    name: text('name').notNull(),
    /**
     * Portal-owned: an admin's rename. Screens show display_name ?? name, and the
     * sync never writes it, so a rename survives the next sync.
     */
    displayName: text('display_name'),
    /** name and display_name lowered (migration 0022), for the dispatch list's search. */
    nameKey: lowered('name_key', 'name').notNull(),
    displayNameKey: lowered('display_name_key', 'display_name'),
    accountManagerId: uuid('account_manager_id').references((): AnyPgColumn => appUser.id, {
      onDelete: 'set null',
    }),
    providerCreated: tz('provider_created'),
    providerUpdated: tz('provider_updated'),
    /** Set when the destination is gone upstream: the row leaves lists, its history stays. */
    removedAt: tz('removed_at'),
    /** Whether the company's users may make API keys for it (an admin's setting). */
    apiKeysAllowed: boolean('api_keys_allowed').notNull().default(false),
    syncedAt: tz('synced_at'),
    ...timestamps(),
    /** Provider-owned (migration 0030): the destination's launchAuth; null = not sent (cookies). */
    launchAuthType: text('launch_auth_type'),
    launchAuthIpAddress: boolean('launch_auth_ip_address'),
    launchAuthFingerprint: boolean('launch_auth_fingerprint'),
    launchAuthExpiry: integer('launch_auth_expiry'),
    launchAuthSlidingExpiry: integer('launch_auth_sliding_expiry'),
    /** As last read from SCORM Cloud's …/dispatches/hashUserInfo; null = never read. */
    hashUserInfo: boolean('hash_user_info'),
    /** Portal-owned: sent as `cssUrl` with every package request of the company. */
    cssUrl: text('css_url'),
  },
  (t) => [
    index('company_name_idx').on(sql`lower(${t.name})`),
    index('company_account_manager_id_idx').on(t.accountManagerId),
  ],
)

export const appUser = pgTable(
  'app_user',
  {
    id: uuidId(),
    email: text('email').notNull(),
    username: text('username').notNull(),
    name: text('name'),
    passwordHash: text('password_hash').notNull(),
    role: text('role').notNull(),
    companyId: companyRef('set null'),
    status: text('status').notNull().default('active'),
    /** Bumped on password or role change: access tokens carry it, so old ones stop working. */
    tokenVersion: integer('token_version').notNull().default(0),
    ...timestamps(),
    lastLogin: tz('last_login'),
  },
  (t) => [
    uniqueIndex('app_user_email_key').on(sql`lower(${t.email})`),
    index('app_user_company_id_idx').on(t.companyId),
    index('app_user_role_idx').on(t.role),
    check('app_user_role_check', sql`${t.role} in ('admin','internal','sales','client')`),
    check('app_user_status_check', sql`${t.status} in ('active','suspended')`),
  ],
)

/** One sign-in: the family of rotated refresh tokens. Revoking it ends the session everywhere. */
export const authSession = pgTable(
  'auth_session',
  {
    id: uuidId(),
    userId: userRef('user_id', 'cascade').notNull(),
    createdAt: createdAt(),
    /** Absolute session limit: no refresh extends a session past it. */
    expiresAt: expiresAt(),
    revokedAt: tz('revoked_at'),
    revokedReason: text('revoked_reason'),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    /** The session's last sign-in or token refresh (at most every 15 minutes while in use). */
    lastUsedAt: tz('last_used_at'),
  },
  (t) => [index('auth_session_user_id_idx').on(t.userId)],
)

/** `session_id`, naming a sign-in (auth_session.id): its rows end with it. */
export const sessionRef = () => uuid('session_id').references(() => authSession.id, { onDelete: 'cascade' })

export const refreshToken = pgTable(
  'refresh_token',
  {
    id: uuidId(),
    sessionId: sessionRef().notNull(),
    /** SHA-256 of the token: a database leak gives no usable token. */
    tokenHash: text('token_hash').notNull(),
    ...singleUse(),
    replacedBy: uuid('replaced_by'),
  },
  (t) => [
    uniqueIndex('refresh_token_token_hash_key').on(t.tokenHash),
    index('refresh_token_session_id_idx').on(t.sessionId),
  ],
)

/** Failed sign-ins per account and per IP, shared by every server process. */
export const loginThrottle = pgTable('login_throttle', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  windowStartedAt: tz('window_started_at').notNull().defaultNow(),
  blockedUntil: tz('blocked_until'),
})
