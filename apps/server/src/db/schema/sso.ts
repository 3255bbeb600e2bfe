import { sql } from 'drizzle-orm'
import { boolean, check, index, jsonb, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { companyRef, sessionRef, userRef } from './users'
import { createdAt, expiresAt, timestamps, tz, uuidId } from './columns'

/**
 * A company's single sign-on connection (one per company). `protocol` says which settings
 * apply: OIDC's are typed columns here; SAML's are the validated `saml_settings` JSON (public
 * metadata only, nothing secret). Secrets are stored encrypted (lib/secret-box.ts).
 */
export const ssoConnection = pgTable(
  'sso_connection',
  {
    id: uuidId(),
    /** Null for the vendor's staff connection (`staff`), the one connection of no company. */
    companyId: companyRef('cascade'),
    staff: boolean('staff').notNull().default(false),
    /** The staff connection's name on the sign-in screen ("Continue with <name> sign-in"). */
    displayName: text('display_name'),
    protocol: text('protocol').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    /** Password sign-in is refused for the company's client users. */
    ssoRequired: boolean('sso_required').notNull().default(false),
    /** An unknown user the provider vouches for becomes a client user of the company. */
    createUsers: boolean('create_users').notNull().default(false),
    oidcIssuer: text('oidc_issuer'),
    oidcClientId: text('oidc_client_id'),
    /** AES-256-GCM, `v1.<iv>.<tag>.<ciphertext>` in base64url; never returned by the API. */
    oidcClientSecret: text('oidc_client_secret'),
    oidcScopes: text('oidc_scopes'),
    oidcEmailClaim: text('oidc_email_claim'),
    oidcNameClaim: text('oidc_name_claim'),
    /** The staff connection's group or role claim, mapped to a role through `sso_staff_role`. */
    oidcRoleClaim: text('oidc_role_claim'),
    /** SAML's settings (the IdP's metadata, entity id, SSO URL, certificates), validated by the service. */
    samlSettings: jsonb('saml_settings'),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('sso_connection_company_id_key').on(t.companyId),
    check('sso_connection_protocol_check', sql`${t.protocol} in ('oidc','saml')`),
    check('sso_connection_owner_check', sql`${t.staff} = (${t.companyId} is null)`),
    uniqueIndex('sso_connection_staff_key')
      .on(t.staff)
      .where(sql`${t.staff}`),
  ],
)

/** `connection_id`: rows of a connection go with it. */
const connectionRef = () =>
  uuid('connection_id')
    .notNull()
    .references(() => ssoConnection.id, { onDelete: 'cascade' })

/** An e-mail domain and the one company whose users sign in with it (none: the vendor's staff). */
export const ssoDomain = pgTable(
  'sso_domain',
  {
    domain: text('domain').primaryKey(),
    companyId: companyRef('cascade'),
    createdAt: createdAt(),
  },
  (t) => [index('sso_domain_company_id_idx').on(t.companyId)],
)

/**
 * A started sign-in, kept in the database so whichever server process receives the provider's
 * callback can finish it. Used once; refused after `expires_at`.
 */
export const ssoFlow = pgTable(
  'sso_flow',
  {
    id: uuidId(),
    connectionId: connectionRef(),
    state: text('state').notNull(),
    nonce: text('nonce').notNull(),
    codeVerifier: text('code_verifier').notNull(),
    createdAt: createdAt(),
    expiresAt: expiresAt(),
    consumedAt: tz('consumed_at'),
    /** An admin's "Test connection": signs nobody in; what the provider sent is kept for that admin. */
    testedBy: userRef('tested_by', 'cascade'),
    /** The test's outcome: the claims or attributes received (never a token), or the refusal. */
    testResult: jsonb('test_result'),
    /** 'sign_in', or 'logout': a SAML LogoutRequest (its id is `state`) awaiting the provider's answer. */
    purpose: text('purpose').notNull().default('sign_in'),
  },
  (t) => [index('sso_flow_expires_at_idx').on(t.expiresAt), index('sso_flow_state_idx').on(t.state)],
)

/**
 * The one-time code the callback hands the sign-in page (in the address fragment), exchanged
 * once by POST for the portal's tokens: tokens never travel in a URL. Only its hash is kept.
 */
export const ssoHandoff = pgTable('sso_handoff', {
  codeHash: text('code_hash').primaryKey(),
  userId: userRef('user_id', 'cascade').notNull(),
  connectionId: connectionRef(),
  expiresAt: expiresAt(),
  consumedAt: tz('consumed_at'),
  /** The second factors the OIDC provider reported (`amr`), for the company's rule (0030). */
  amr: jsonb('amr').$type<string[]>(),
  /** The SAML subject to name in a LogoutRequest, when the provider offers single logout. */
  samlSubject: jsonb('saml_subject').$type<SamlSubject>(),
})

/** Who the identity provider signed in, as a LogoutRequest names them. */
export interface SamlSubject {
  nameID: string
  nameIDFormat: string | null
  sessionIndex: string | null
}

/** Which connection a portal session came from, for signing out at the provider too. */
export const ssoSession = pgTable('sso_session', {
  sessionId: sessionRef().primaryKey(),
  connectionId: connectionRef(),
  /** The SAML subject (NameID, SessionIndex) the provider's session is ended with; null: none to end. */
  samlSubject: jsonb('saml_subject').$type<SamlSubject>(),
})

/**
 * A SAML assertion id already accepted from an identity provider, kept until the assertion's
 * own expiry: any server process refuses the same assertion a second time.
 */
export const ssoAssertion = pgTable(
  'sso_assertion',
  {
    issuer: text('issuer').notNull(),
    assertionId: text('assertion_id').notNull(),
    expiresAt: expiresAt(),
  },
  (t) => [
    primaryKey({ name: 'sso_assertion_pkey', columns: [t.issuer, t.assertionId] }),
    index('sso_assertion_expires_at_idx').on(t.expiresAt),
  ],
)

/** A value of the staff connection's group or role claim and the portal role it gives. */
export const ssoStaffRole = pgTable(
  'sso_staff_role',
  {
    claimValue: text('claim_value').primaryKey(),
    role: text('role').notNull(),
    createdAt: createdAt(),
  },
  (t) => [check('sso_staff_role_role_check', sql`${t.role} in ('admin','internal','sales')`)],
)

/**
 * A company's client user who may keep signing in with a password although the company requires
 * single sign-on (a contractor without an account at the company's provider). Bound to the
 * company: moved to another company, the user follows that company's rule.
 */
export const ssoPasswordUser = pgTable(
  'sso_password_user',
  {
    userId: userRef('user_id', 'cascade').notNull(),
    companyId: companyRef('cascade').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: 'sso_password_user_pkey', columns: [t.userId, t.companyId] }),
    index('sso_password_user_company_id_idx').on(t.companyId),
  ],
)
