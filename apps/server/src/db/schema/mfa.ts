import { sql } from 'drizzle-orm'
import { bigint, boolean, check, index, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { companyRef, userRef } from './users'
import { createdAt, singleUse, tz, updatedAt, uuidId } from './columns'

/**
 * A user's second factors (migration 0027). An authenticator app's key is sealed with the
 * secret box (lib/secret-box.ts) and is only usable once confirmed with a first code; a passkey
 * is a WebAuthn credential (its public key and signature counter).
 */
export const mfaFactor = pgTable(
  'mfa_factor',
  {
    id: uuidId(),
    userId: userRef('user_id', 'cascade').notNull(),
    kind: text('kind').notNull(),
    name: text('name').notNull(),
    /** AES-256-GCM, bound to the row (`mfa_factor:<id>:totp_secret`); never returned after enrolment. */
    totpSecret: text('totp_secret'),
    /** The last time step a code was accepted for: that step and earlier are refused (replay). */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    credentialId: text('credential_id'),
    publicKey: text('public_key'),
    signCount: bigint('sign_count', { mode: 'number' }),
    transports: text('transports'),
    createdAt: createdAt(),
    confirmedAt: tz('confirmed_at'),
    lastUsedAt: tz('last_used_at'),
  },
  (t) => [
    index('mfa_factor_user_id_idx').on(t.userId),
    uniqueIndex('mfa_factor_credential_id_key').on(t.credentialId),
    check('mfa_factor_kind_check', sql`${t.kind} in ('totp','passkey')`),
  ],
)

/** One-use recovery codes, stored as SHA-256 of the user id and the code. */
export const mfaRecoveryCode = pgTable(
  'mfa_recovery_code',
  {
    id: uuidId(),
    userId: userRef('user_id', 'cascade').notNull(),
    codeHash: text('code_hash').notNull(),
    createdAt: createdAt(),
    usedAt: tz('used_at'),
  },
  (t) => [
    uniqueIndex('mfa_recovery_code_hash_key').on(t.codeHash),
    index('mfa_recovery_code_user_id_idx').on(t.userId),
  ],
)

/**
 * The single-purpose token between the password and the second step (`verify`), or between the
 * password and a required enrolment (`enrol`), or a passkey sign-in's challenge (`passkey`, no
 * user yet), or a passkey registration's challenge from Profile (`passkey-register`, hashed
challenge). Stored hashed; spent once.
 */
export const mfaChallenge = pgTable(
  'mfa_challenge',
  {
    id: uuidId(),
    tokenHash: text('token_hash').notNull(),
    userId: userRef('user_id', 'cascade'),
    purpose: text('purpose').notNull(),
    /** The sign-in's own details (method, company), written to LOGIN_SUCCESS when it completes. */
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    webauthnChallenge: text('webauthn_challenge'),
    ...singleUse(),
  },
  (t) => [
    uniqueIndex('mfa_challenge_token_hash_key').on(t.tokenHash),
    index('mfa_challenge_expires_at_idx').on(t.expiresAt),
  ],
)

/** "Second factor required" per staff role; a role without a row follows the default. */
export const mfaRoleRule = pgTable('mfa_role_rule', {
  role: text('role').primaryKey(),
  required: boolean('required').notNull(),
  updatedAt: updatedAt(),
})

/** "Second factor required" for a company's client users. */
export const mfaCompanyRule = pgTable('mfa_company_rule', {
  companyId: companyRef('cascade').primaryKey(),
  required: boolean('required').notNull(),
  /** With the company's single sign-on, a second factor its provider reports (`amr`) counts (0030). */
  trustProviderFactor: boolean('trust_provider_factor').notNull().default(false),
  updatedAt: updatedAt(),
})
