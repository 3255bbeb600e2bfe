import { createHash } from 'node:crypto'
import {
  type ActivityAction,
  issuerError,
  SSO_DEFAULT_SCOPES,
  type SaveOidcConnectionBody,
  type SaveStaffSsoBody,
  type SsoErrorCode,
  type SsoTestResult,
} from '@portal/shared'
import type { FastifyBaseLogger } from 'fastify'
import type { Configuration } from 'openid-client'
import { generatedSsoKey } from '../../config'
import type { Db, DbOrTx } from '../../db/client'
import type { Actor } from '../../lib/actor'
import { AppError } from '../../lib/app-error'
import { createSecretBox, type SecretBox } from '../../lib/secret-box'
import type { ActivityRepository } from '../activity-logs/activity.repository'
import type { AuthService, ClientInfo } from '../auth/auth.service'
import type { UsersRepository } from '../users/users.repository'
import { discover } from './oidc'
import type { ServiceProvider, StoredSamlSettings } from './saml'
import type { SsoConnectionRow, SsoRepository } from './sso.repository'

/** A started sign-in may take this long at the provider (typing a password, an MFA prompt). */
export const FLOW_MINUTES = 10
/** Flows, codes and assertion ids are dropped a day past their expiry (kept meanwhile for support). */
export const EXPIRED_GRACE_MS = 24 * 3_600_000
const DISCOVERY_CACHE_MS = 5 * 60_000
/** The staff connection's default group claim (a list of group names, as most providers send). */
export const DEFAULT_ROLE_CLAIM = 'groups'

export interface AdminContext {
  actor: Actor | null
  ip: string
}

/** Demo mode's built-in provider: its company's domain and accounts, for the sign-in screen. */
export interface SsoDemoInfo {
  domain: string
  accounts: { email: string; name: string }[]
  /** The demo staff connection's accounts and the role each one's group maps to. */
  staffAccounts: { email: string; name: string; role: string }[]
}

/** What the single sign-on service is built from (app.ts). */
export interface SsoDeps {
  db: Db
  repositories: { sso: SsoRepository; users: UsersRepository }
  auth: AuthService
  activity: ActivityRepository
  config: { publicUrl: string; ssoSecretKey: string | null; dataDir: string }
  log: FastifyBaseLogger
  demo?: SsoDemoInfo | null
}

/** A refusal of the sign-in flow: the code the sign-in page shows, the reason the log keeps. */
export class SsoRefusal extends Error {
  constructor(
    readonly code: SsoErrorCode,
    readonly reason: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(reason)
  }
}

/** Who the provider says signed in, from an ID token's claims or an assertion's attributes. */
export interface Identity {
  email: unknown
  name: unknown
  emailVerified?: unknown
  /** The staff connection's group or role claim (a value or a list). */
  groups?: unknown
}

export const hash = (value: string) => createHash('sha256').update(value).digest('base64url')
const secretContext = (connectionId: string) => `sso_connection:${connectionId}:oidc_client_secret`

export const invalid = (field: string, message: string) =>
  new AppError('VALIDATION_FAILED', message, { details: [{ field, message }] })

/** Whether a database error is a unique violation (PostgreSQL and PGlite name it alike). */
/** An OIDC connection's client as the API shows it: whether a secret is set, never the secret. */
export function oidcClientOf(row: SsoConnectionRow) {
  return {
    issuer: row.oidcIssuer ?? '',
    clientId: row.oidcClientId ?? '',
    clientSecretSet: Boolean(row.oidcClientSecret),
    scopes: row.oidcScopes ?? SSO_DEFAULT_SCOPES,
    emailClaim: row.oidcEmailClaim ?? 'email',
    nameClaim: row.oidcNameClaim ?? 'name',
  }
}

export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: unknown; cause?: { code?: unknown } }
  return e.code === '23505' || e.cause?.code === '23505'
}

/** The helpers every part of the single sign-on service shares: secrets, discovery, addresses. */
export function createSsoContext(deps: SsoDeps) {
  const { activity, log } = deps
  const { sso } = deps.repositories
  let opened: SecretBox | null = null
  // The key file in DATA_DIR is read (or made) when a secret is first sealed or opened.
  const box = () => (opened ??= createSecretBox(deps.config.ssoSecretKey ?? generatedSsoKey(deps.config.dataDir)))
  const redirectUri = `${deps.config.publicUrl}/api/auth/sso/callback`
  const discovered = new Map<string, { at: number; config: Promise<Configuration> }>()

  function clientSecretOf(row: SsoConnectionRow): string | null {
    if (!row.oidcClientSecret) return null
    const plain = box().open(row.oidcClientSecret, secretContext(row.id))
    // Sealed under another key (SSO_SECRET_KEY changed): the admin enters the secret again.
    if (plain === null) log.warn({ connectionId: row.id }, 'an SSO client secret could not be decrypted')
    return plain
  }

  return {
    ...deps,
    sso,
    /** An admin's change in the activity log, written in the change's transaction. */
    recordAdmin(action: ActivityAction, admin: AdminContext, details: unknown, tx: DbOrTx) {
      return activity.record({ action, actor: admin.actor, ipAddress: admin.ip, details }, tx)
    },
    users: deps.repositories.users,
    redirectUri,

    /**
     * A saved connection's client secret as the admin sent it: left out keeps the stored one,
     * blank clears it, anything else is sealed for this row: the id binds it, so a sealed value
     * moved to another row fails to open (and the id exists only once the row is saved).
     */
    async replaceClientSecret(saved: SsoConnectionRow, clientSecret: string | undefined, tx: DbOrTx) {
      if (clientSecret === undefined) return
      const secret = clientSecret.trim()
      saved.oidcClientSecret = secret ? box().seal(secret, secretContext(saved.id)) : null
      await sso.setClientSecret(saved.id, saved.oidcClientSecret, tx)
    },

    /**
     * This portal as a SAML service provider for one company: its entity id is the address of its
     * metadata's parent, so each company's identity provider sees a distinct audience.
     */
    spOf(companyId: string): ServiceProvider {
      const entityId = `${deps.config.publicUrl}/api/auth/sso/saml/${encodeURIComponent(companyId)}`
      return { entityId, acsUrl: `${entityId}/acs`, sloUrl: `${entityId}/slo` }
    },

    samlSettingsOf(row: SsoConnectionRow): StoredSamlSettings | null {
      const value = row.samlSettings as StoredSamlSettings | null
      return value && typeof value.entityId === 'string' && Array.isArray(value.certificates) ? value : null
    },

    async requireCompany(companyId: string) {
      const company = await sso.findCompany(companyId)
      if (!company) throw new AppError('NOT_FOUND', 'Company not found')
      return company
    },

    /** Discovery, remembered a few minutes per connection version (a save starts afresh). */
    providerOf(row: SsoConnectionRow): Promise<Configuration> {
      const key = `${row.id}:${row.updatedAt.getTime()}`
      const known = discovered.get(key)
      if (known && Date.now() - known.at < DISCOVERY_CACHE_MS) return known.config
      const config = discover({
        issuer: row.oidcIssuer!,
        clientId: row.oidcClientId!,
        clientSecret: clientSecretOf(row),
      })
      discovered.set(key, { at: Date.now(), config })
      config.catch(() => discovered.delete(key))
      return config
    },

    /**
     * Records a refused sign-in; the reason names the check, never a token, claim, assertion or
     * attribute value. The sign-in page's address with the refusal's code.
     */
    async refuse(refusal: SsoRefusal, client: ClientInfo, companyId: string | null, method: 'oidc' | 'saml' = 'oidc') {
      await activity.record({
        action: 'LOGIN_FAILED',
        actor: null,
        details: { method, reason: refusal.reason, companyId, ...refusal.extra },
        ipAddress: client.ip,
      })
      return `/login?sso_error=${refusal.code}`
    },

    /** OIDC's settings from a save, checked (shared by company and staff connections). */
    oidcValues(body: SaveOidcConnectionBody | SaveStaffSsoBody) {
      const issuer = body.issuer.trim().replace(/\/+$/, '')
      const issuerProblem = issuerError(issuer)
      if (issuerProblem) throw invalid('issuer', issuerProblem)
      const clientId = body.clientId.trim()
      if (!clientId) throw invalid('clientId', 'Enter the client id the provider gave.')
      const scopes = (body.scopes?.trim() || SSO_DEFAULT_SCOPES).split(/\s+/).filter(Boolean)
      if (!scopes.includes('openid')) scopes.unshift('openid')
      const claim = (value: string | undefined, fallback: string) => value?.trim() || fallback
      return {
        oidcIssuer: issuer,
        oidcClientId: clientId,
        oidcScopes: scopes.join(' '),
        oidcEmailClaim: claim(body.emailClaim, 'email'),
        oidcNameClaim: claim(body.nameClaim, 'name'),
      }
    },

    /** OIDC's test: discovery, and what the provider publishes. */
    async testOidc(row: SsoConnectionRow): Promise<SsoTestResult> {
      try {
        const meta = (
          await discover({ issuer: row.oidcIssuer!, clientId: row.oidcClientId!, clientSecret: null })
        ).serverMetadata()
        return {
          ok: true,
          message: 'The provider answered and publishes the endpoints below.',
          issuer: meta.issuer,
          authorizationEndpoint: meta.authorization_endpoint,
          tokenEndpoint: meta.token_endpoint,
          jwksUri: meta.jwks_uri,
          userinfoEndpoint: meta.userinfo_endpoint,
          endSessionEndpoint: meta.end_session_endpoint,
          scopesSupported: meta.scopes_supported,
          signingAlgorithms: meta.id_token_signing_alg_values_supported,
        }
      } catch (error) {
        const reason = error instanceof Error ? error.message.slice(0, 300) : 'unknown error'
        return { ok: false, message: `Discovery at ${row.oidcIssuer} failed: ${reason}` }
      }
    },
  }
}
export type SsoContext = ReturnType<typeof createSsoContext>
