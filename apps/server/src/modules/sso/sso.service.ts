import { createHash, randomBytes } from 'node:crypto'
import {
  domainError,
  emailDomain,
  issuerError,
  normaliseDomain,
  ownCompanyOnly,
  type Role,
  SSO_DEFAULT_SCOPES,
  SSO_DOMAINS_MAX,
  SAML_METADATA_MAX_CHARS,
  SSO_MESSAGES as M,
  type SaveOidcConnectionBody,
  type SaveSamlConnectionBody,
  type SaveStaffSsoBody,
  type StaffRoleMapping,
  type StaffSsoSettings,
  type SaveSsoConnectionBody,
  type SignInResponse,
  type SsoDemo,
  type SsoErrorCode,
  type SsoLogoutResponse,
  type SsoLookup,
  type SsoSettings,
  type SsoTestResult,
} from '@portal/shared'
import type { FastifyBaseLogger } from 'fastify'
import type { Configuration } from 'openid-client'
import { generatedSsoKey } from '../../config'
import type { Db, DbOrTx } from '../../db/client'
import type { Actor } from '../../lib/actor'
import { AppError } from '../../lib/app-error'
import { hashPassword } from '../../lib/passwords'
import type { ActivityEntry } from '../activity-logs/activity.repository'
import type { AuthService, ClientInfo } from '../auth/auth.service'
import type { UsersRepository } from '../users/users.repository'
import { providerSecondFactors } from '../mfa/mfa.gate'
import { authorizationUrl, discover, endSessionUrl, finishFlow, refusalOf } from './oidc'
import {
  authnRequestUrl,
  certificateInfo,
  checkResponse,
  fetchMetadata,
  parseIdpMetadata,
  SamlMetadataError,
  SamlRefusal,
  serviceProviderMetadata,
  type ServiceProvider,
  type StoredSamlSettings,
} from './saml'
import { createSecretBox, type SecretBox } from '../../lib/secret-box'
import type { SsoConnectionRow, SsoRepository } from './sso.repository'

/** A started sign-in may take this long at the provider (typing a password, an MFA prompt). */
const FLOW_MINUTES = 10
/** The one-time code lives just long enough for the sign-in page to exchange it. */
const HANDOFF_SECONDS = 60
const DISCOVERY_CACHE_MS = 5 * 60_000

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

/** Where the browser starts the vendor's staff sign-in. */
export const STAFF_START_PATH = '/api/auth/sso/staff/start'
/** The staff connection's default group claim (a list of group names, as most providers send). */
const DEFAULT_ROLE_CLAIM = 'groups'
/** When several of a member's groups map to roles, the first of these they have wins. */
const ROLE_ORDER = ['admin', 'internal', 'sales'] as const

/** A refusal of the sign-in flow: the code the sign-in page shows, the reason the log keeps. */
class SsoRefusal extends Error {
  constructor(
    readonly code: SsoErrorCode,
    readonly reason: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(reason)
  }
}

/** Who the provider says signed in, from an ID token's claims or an assertion's attributes. */
interface Identity {
  email: unknown
  name: unknown
  emailVerified?: unknown
  /** The staff connection's group or role claim (a value or a list). */
  groups?: unknown
}

const hash = (value: string) => createHash('sha256').update(value).digest('base64url')
const secretContext = (connectionId: string) => `sso_connection:${connectionId}:oidc_client_secret`

/**
 * "Single sign-on required": a company's client users may not sign in with a password. Built
 * from the repository alone, so the auth service (made before this module's service) can ask.
 */
export function createSsoPasswordRule(repository: SsoRepository) {
  return async (user: { role: string; companyId: string | null }): Promise<string | null> => {
    // A company's own users are the ones its rules govern (staff are never a company's).
    if (!ownCompanyOnly(user.role as Role) || !user.companyId) return null
    const connection = await repository.findConnection(user.companyId)
    if (!connection?.enabled || !connection.ssoRequired) return null
    const company = await repository.findCompany(user.companyId)
    return M.ssoRequired(company?.name ?? 'Your company')
  }
}

export function createSsoService(deps: {
  db: Db
  repositories: { sso: SsoRepository; users: UsersRepository }
  auth: AuthService
  activity: { record(db: DbOrTx, entry: ActivityEntry): Promise<void> }
  config: { publicUrl: string; ssoSecretKey: string | null; dataDir: string }
  log: FastifyBaseLogger
  demo?: SsoDemoInfo | null
}) {
  const { db, auth, activity, log } = deps
  const { sso, users } = deps.repositories
  let opened: SecretBox | null = null
  // The key file in DATA_DIR is read (or made) when a secret is first sealed or opened.
  const box = () => (opened ??= createSecretBox(deps.config.ssoSecretKey ?? generatedSsoKey(deps.config.dataDir)))
  const redirectUri = `${deps.config.publicUrl}/api/auth/sso/callback`
  const discovered = new Map<string, { at: number; config: Promise<Configuration> }>()

  /**
   * This portal as a SAML service provider for one company: its entity id is the address of its
   * metadata's parent, so each company's identity provider sees a distinct audience.
   */
  function spOf(companyId: string): ServiceProvider {
    const entityId = `${deps.config.publicUrl}/api/auth/sso/saml/${encodeURIComponent(companyId)}`
    return { entityId, acsUrl: `${entityId}/acs` }
  }

  function samlSettingsOf(row: SsoConnectionRow): StoredSamlSettings | null {
    const value = row.samlSettings as StoredSamlSettings | null
    return value && typeof value.entityId === 'string' && Array.isArray(value.certificates) ? value : null
  }

  async function requireCompany(companyId: string) {
    const company = await sso.findCompany(companyId)
    if (!company) throw new AppError('NOT_FOUND', 'Company not found')
    return company
  }

  function clientSecretOf(row: SsoConnectionRow): string | null {
    if (!row.oidcClientSecret) return null
    const plain = box().open(row.oidcClientSecret, secretContext(row.id))
    // Sealed under another key (SSO_SECRET_KEY changed): the admin enters the secret again.
    if (plain === null) log.warn({ connectionId: row.id }, 'an SSO client secret could not be decrypted')
    return plain
  }

  /** Discovery, remembered a few minutes per connection version (a save starts afresh). */
  function providerOf(row: SsoConnectionRow): Promise<Configuration> {
    const key = `${row.id}:${row.updatedAt.getTime()}`
    const known = discovered.get(key)
    if (known && Date.now() - known.at < DISCOVERY_CACHE_MS) return known.config
    const config = discover({ issuer: row.oidcIssuer!, clientId: row.oidcClientId!, clientSecret: clientSecretOf(row) })
    discovered.set(key, { at: Date.now(), config })
    config.catch(() => discovered.delete(key))
    return config
  }

  function toSettings(row: SsoConnectionRow | null, domains: string[], companyId: string): SsoSettings {
    const sp = spOf(companyId)
    const saml = row?.protocol === 'saml' ? samlSettingsOf(row) : null
    return {
      connection: row && {
        protocol: row.protocol as 'oidc' | 'saml',
        enabled: row.enabled,
        ssoRequired: row.ssoRequired,
        createUsers: row.createUsers,
        oidc:
          row.protocol === 'oidc'
            ? {
                issuer: row.oidcIssuer ?? '',
                clientId: row.oidcClientId ?? '',
                clientSecretSet: Boolean(row.oidcClientSecret),
                scopes: row.oidcScopes ?? SSO_DEFAULT_SCOPES,
                emailClaim: row.oidcEmailClaim ?? 'email',
                nameClaim: row.oidcNameClaim ?? 'name',
              }
            : null,
        saml: saml && {
          metadataUrl: saml.metadataUrl,
          idpEntityId: saml.entityId,
          ssoUrl: saml.ssoUrl,
          certificates: saml.certificates.map(certificateInfo),
          allowUnsolicited: saml.allowUnsolicited,
          emailAttribute: saml.emailAttribute,
          nameAttribute: saml.nameAttribute,
        },
        updatedAt: row.updatedAt.toISOString(),
      },
      domains,
      redirectUri,
      saml: { entityId: sp.entityId, acsUrl: sp.acsUrl, metadataUrl: `${sp.entityId}/metadata` },
    }
  }

  const invalid = (field: string, message: string) =>
    new AppError('VALIDATION_FAILED', message, { details: [{ field, message }] })

  /**
   * Records a refused sign-in; the reason names the check, never a token, claim, assertion or
   * attribute value.
   */
  async function refuse(
    refusal: SsoRefusal,
    client: ClientInfo,
    companyId: string | null,
    method: 'oidc' | 'saml' = 'oidc',
  ) {
    await activity.record(db, {
      action: 'LOGIN_FAILED',
      actor: null,
      details: { method, reason: refusal.reason, companyId, ...refusal.extra },
      ipAddress: client.ip,
    })
    return `/login?sso_error=${refusal.code}`
  }

  const oidcIdentity = (connection: SsoConnectionRow, claims: Record<string, unknown>): Identity => ({
    email: claims[connection.oidcEmailClaim ?? 'email'],
    name: claims[connection.oidcNameClaim ?? 'name'],
    emailVerified: claims.email_verified,
    groups: connection.staff ? claims[connection.oidcRoleClaim ?? DEFAULT_ROLE_CLAIM] : undefined,
  })

  /**
   * The vendor's staff member the staff provider vouches for: the role comes from the mapping of
   * the group claim at every sign-in (changed, audited, and earlier tokens ended when it
   * changes); without a matching mapping nobody gets in or is created. A client user, or an
   * e-mail of a company's domain, never signs in here.
   */
  async function staffUserFor(connection: SsoConnectionRow, identity: Identity) {
    const email = typeof identity.email === 'string' ? identity.email.trim().toLowerCase() : ''
    const domain = emailDomain(email)
    if (!domain || email.length > 254) throw new SsoRefusal('no_email', 'no usable e-mail claim')
    if (identity.emailVerified === false) throw new SsoRefusal('no_email', 'e-mail not verified by the provider')
    const owner = await sso.ownerOfDomain(domain)
    if (owner?.companyId) throw new SsoRefusal('other_company', 'e-mail domain of a company', { email })
    const values = (Array.isArray(identity.groups) ? identity.groups : [identity.groups]).filter(
      (v): v is string => typeof v === 'string',
    )
    const mapped = new Set((await sso.staffRoles()).filter((m) => values.includes(m.claimValue)).map((m) => m.role))
    const role = ROLE_ORDER.find((r) => mapped.has(r))
    let found = await users.findCredentialsByEmail(email)
    if (found && found.status !== 'active') throw new SsoRefusal('suspended', 'account suspended', { email })
    if (found && ownCompanyOnly(found.role as Role)) {
      throw new SsoRefusal('not_member', 'a client user at the staff connection', { email })
    }
    if (!role) throw new SsoRefusal('no_role', 'no role mapping matches', { email })
    if (!found) {
      const name = typeof identity.name === 'string' && identity.name.trim() ? identity.name.trim().slice(0, 200) : null
      await users.insert({
        email,
        username: email.split('@')[0]!.slice(0, 100),
        name,
        passwordHash: await hashPassword(randomBytes(32).toString('base64url')),
        role,
        companyId: null,
      })
      found = await users.findCredentialsByEmail(email)
      if (!found) throw new SsoRefusal('failed', 'user could not be created', { email })
      return { user: found, created: true }
    }
    if (found.role !== role) {
      const before = found.role
      await db.transaction(async (tx) => {
        // A new token version ends the access tokens issued under the old role.
        await users.update(found!.id, { role }, true, tx)
        await activity.record(tx, {
          action: 'SSO_STAFF_ROLE_CHANGED',
          actor: null,
          ipAddress: null,
          details: { userId: found!.id, email, before, after: role },
        })
      })
      found = await users.findCredentialsByEmail(email)
    }
    return { user: found!, created: false }
  }

  /** An assertion's e-mail: the configured attribute, else the usual ones, else an e-mail NameID. */
  function samlIdentity(settings: StoredSamlSettings, attributes: Record<string, unknown>): Identity {
    const one = (value: unknown) => (Array.isArray(value) ? value[0] : value)
    const nameId = typeof attributes.nameID === 'string' && attributes.nameID.includes('@') ? attributes.nameID : null
    return {
      email: one(attributes[settings.emailAttribute]) ?? one(attributes.email) ?? nameId,
      name: one(attributes[settings.nameAttribute]) ?? one(attributes.displayName),
    }
  }

  /** The portal user the provider's identity stands for, created when the company allows it. */
  async function userFor(connection: SsoConnectionRow, identity: Identity) {
    const emailClaim = identity.email
    const nameClaim = identity.name
    const email = typeof emailClaim === 'string' ? emailClaim.trim().toLowerCase() : ''
    const domain = emailDomain(email)
    if (!domain || email.length > 254) throw new SsoRefusal('no_email', 'no usable e-mail claim')
    if (identity.emailVerified === false) throw new SsoRefusal('no_email', 'e-mail not verified by the provider')
    const owner = await sso.ownerOfDomain(domain)
    if (owner && owner.companyId !== connection.companyId) {
      throw new SsoRefusal('other_company', 'e-mail domain of another company', { email })
    }
    let found = await users.findCredentialsByEmail(email)
    if (!found) {
      if (!connection.createUsers) throw new SsoRefusal('unknown_user', 'unknown user', { email })
      const name = typeof nameClaim === 'string' && nameClaim.trim() ? nameClaim.trim().slice(0, 200) : null
      try {
        await users.insert({
          email,
          username: email.split('@')[0]!.slice(0, 100),
          name,
          // Never typed by anyone: such a user signs in through the provider only.
          passwordHash: await hashPassword(randomBytes(32).toString('base64url')),
          role: 'client',
          companyId: connection.companyId,
        })
      } catch (error) {
        // Two first sign-ins at once: the other one created the user.
        const e = error as { code?: unknown; cause?: { code?: unknown } }
        if (e.code !== '23505' && e.cause?.code !== '23505') throw error
      }
      found = await users.findCredentialsByEmail(email)
      if (!found) throw new SsoRefusal('failed', 'user could not be created', { email })
      return { user: found, created: true }
    }
    if (found.status !== 'active') throw new SsoRefusal('suspended', 'account suspended', { email })
    // A company's provider vouches for that company's client users only, never for staff or
    // another company's users, whatever e-mail it claims.
    if (!ownCompanyOnly(found.role as Role) || found.companyId !== connection.companyId) {
      throw new SsoRefusal('not_member', 'not a client user of this company', { email })
    }
    return { user: found, created: false }
  }

  /** OIDC: the issuer, client and claims; the secret is kept when left out. */
  async function saveOidc(companyId: string, body: SaveOidcConnectionBody, ctx: AdminContext) {
    const values = oidcValues(body)
    const current = await sso.findConnection(companyId)
    const row = await db.transaction(async (tx) => {
      const saved = await sso.saveConnection(
        companyId,
        {
          protocol: 'oidc',
          enabled: body.enabled ?? true,
          ssoRequired: body.ssoRequired,
          createUsers: body.createUsers,
          ...values,
          // A new secret is sealed below, bound to the row's id.
          oidcClientSecret: current?.protocol === 'oidc' ? current.oidcClientSecret : null,
          samlSettings: null,
        },
        tx,
      )
      if (body.clientSecret !== undefined) {
        const secret = body.clientSecret.trim()
        saved.oidcClientSecret = secret ? box().seal(secret, secretContext(saved.id)) : null
        await sso.setClientSecret(saved.id, saved.oidcClientSecret, tx)
      }
      const settings = toSettings(saved, [], companyId)
      await activity.record(tx, {
        action: 'SSO_CONNECTION_SAVED',
        actor: ctx.actor,
        ipAddress: ctx.ip,
        // The settings as the API shows them: whether a secret is set, never the secret.
        details: {
          companyId,
          created: !current,
          clientSecretChanged: body.clientSecret !== undefined,
          after: settings.connection,
        },
      })
      return saved
    })
    return toSettings(row, await sso.domains(companyId), companyId)
  }

  /**
   * SAML: the identity provider's metadata, pasted or fetched now from its URL, is read and
   * checked before anything is saved; saved without metadata, the stored one stays.
   */
  async function saveSaml(companyId: string, body: SaveSamlConnectionBody, ctx: AdminContext) {
    const current = await sso.findConnection(companyId)
    const stored = current?.protocol === 'saml' ? samlSettingsOf(current) : null
    const metadataUrl = body.metadataUrl?.trim() || null
    let metadataXml = body.metadataXml?.trim() || null
    if (metadataUrl && issuerError(metadataUrl)) throw invalid('metadataUrl', M.samlMetadataUrlInvalid)
    try {
      if (!metadataXml && metadataUrl) metadataXml = await fetchMetadata(metadataUrl, SAML_METADATA_MAX_CHARS)
    } catch (error) {
      if (error instanceof SamlMetadataError) throw invalid('metadataUrl', error.message)
      throw error
    }
    if (!metadataXml && !stored) throw invalid('metadataXml', M.samlMetadataMissing)
    let settings: StoredSamlSettings
    if (metadataXml) {
      try {
        const idp = parseIdpMetadata(metadataXml, (url) => issuerError(url) === null)
        settings = {
          ...idp,
          metadataUrl: body.metadataXml?.trim() ? null : metadataUrl,
          metadataXml,
          allowUnsolicited: false,
          emailAttribute: 'email',
          nameAttribute: 'name',
        }
      } catch (error) {
        if (error instanceof SamlMetadataError)
          throw invalid(metadataUrl && !body.metadataXml ? 'metadataUrl' : 'metadataXml', error.message)
        throw error
      }
    } else {
      settings = { ...stored! }
    }
    settings.allowUnsolicited = body.allowUnsolicited ?? false
    settings.emailAttribute = body.emailAttribute?.trim() || 'email'
    settings.nameAttribute = body.nameAttribute?.trim() || 'name'
    const row = await db.transaction(async (tx) => {
      const saved = await sso.saveConnection(
        companyId,
        {
          protocol: 'saml',
          enabled: body.enabled ?? true,
          ssoRequired: body.ssoRequired,
          createUsers: body.createUsers,
          oidcIssuer: null,
          oidcClientId: null,
          oidcClientSecret: null,
          oidcScopes: null,
          oidcEmailClaim: null,
          oidcNameClaim: null,
          samlSettings: settings,
        },
        tx,
      )
      await activity.record(tx, {
        action: 'SSO_CONNECTION_SAVED',
        actor: ctx.actor,
        ipAddress: ctx.ip,
        details: { companyId, created: !current, after: toSettings(saved, [], companyId).connection },
      })
      return saved
    })
    return toSettings(row, await sso.domains(companyId), companyId)
  }

  /**
   * The signed-in user's one-time code for the sign-in page, in the address fragment: the
   * browser never sends a fragment to a server, so no log or proxy sees it.
   */
  async function handOff(connection: SsoConnectionRow, identity: Identity, amr?: string[]): Promise<string> {
    const { user, created } = connection.staff
      ? await staffUserFor(connection, identity)
      : await userFor(connection, identity)
    const code = randomBytes(32).toString('base64url')
    await sso.insertHandoff({
      codeHash: hash(code),
      userId: user.id,
      connectionId: connection.id,
      expiresAt: new Date(Date.now() + HANDOFF_SECONDS * 1000),
      amr: amr?.length ? amr : null,
    })
    if (created) log.info({ userId: user.id, companyId: connection.companyId }, 'user created on first single sign-on')
    return `/login#sso_code=${code}${created ? '&created=1' : ''}`
  }

  /** SAML's test: the stored metadata read again (or fetched again from its URL), what it says. */
  async function testSaml(row: SsoConnectionRow): Promise<SsoTestResult> {
    const stored = samlSettingsOf(row)
    try {
      const xml = stored?.metadataUrl
        ? await fetchMetadata(stored.metadataUrl, SAML_METADATA_MAX_CHARS)
        : (stored?.metadataXml ?? '')
      const idp = parseIdpMetadata(xml, (url) => issuerError(url) === null)
      const certificates = idp.certificates.map(certificateInfo)
      const expired = certificates.filter((c) => Date.parse(c.notAfter) <= Date.now())
      return {
        ok: expired.length === 0,
        message:
          expired.length === 0
            ? 'The metadata is valid. The identity provider is described below.'
            : 'The metadata is valid, but a signing certificate has expired.',
        idpEntityId: idp.entityId,
        ssoUrl: idp.ssoUrl,
        certificates,
      }
    } catch (error) {
      const reason = error instanceof Error ? error.message.slice(0, 300) : 'unknown error'
      return { ok: false, message: `The identity provider's metadata is not usable: ${reason}` }
    }
  }

  /**
   * The domains of a company (or, null, of the vendor's staff) become exactly these; a domain of
   * another owner is a 409.
   */
  async function replaceDomainsOf(companyId: string | null, input: string[], ctx: AdminContext) {
    const domains = [...new Set(input.map(normaliseDomain).filter(Boolean))].sort()
    const badAt = input.findIndex((d) => normaliseDomain(d) && domainError(d))
    if (badAt >= 0) {
      // Named by its place in the list sent, as every other field error names its item.
      const bad = normaliseDomain(input[badAt]!)
      throw invalid(`domains/${badAt}`, `${M.domainInvalid} "${bad.slice(0, 100)}" is not one.`)
    }
    if (domains.length > SSO_DOMAINS_MAX) throw invalid('domains', M.tooManyDomains)
    const taken = await sso.domainsOfOthers(domains, companyId)
    const conflict = (domain: string, company: string) =>
      new AppError(
        'CONFLICT',
        `The domain ${domain} already belongs to ${company}. A domain can belong to one company only.`,
        {
          details: [{ field: 'domains', message: `${domain} belongs to ${company}` }],
        },
      )
    if (taken[0]) throw conflict(taken[0].domain, taken[0].companyName)
    const before = await sso.domains(companyId)
    try {
      await db.transaction(async (tx) => {
        await sso.replaceDomains(companyId, domains, tx)
        // Inserted domains that another company took meanwhile were skipped: refuse them.
        const raced = await sso.domainsOfOthers(domains, companyId, tx)
        if (raced[0]) throw conflict(raced[0].domain, raced[0].companyName)
        await activity.record(tx, {
          action: 'SSO_DOMAINS_UPDATED',
          actor: ctx.actor,
          ipAddress: ctx.ip,
          details: { companyId, ...(companyId === null ? { staff: true } : {}), before, after: domains },
        })
      })
    } catch (error) {
      const e = error as { code?: unknown; cause?: { code?: unknown } }
      if (e.code === '23505' || e.cause?.code === '23505') throw conflict(domains.join(', '), 'another company')
      throw error
    }
  }

  /** OIDC's test: discovery, and what the provider publishes. */
  async function testOidc(row: SsoConnectionRow): Promise<SsoTestResult> {
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
  }

  /** OIDC's settings from a save, checked (shared by company and staff connections). */
  function oidcValues(body: SaveOidcConnectionBody | SaveStaffSsoBody) {
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
  }

  async function toStaffSettings(row: SsoConnectionRow | null, tx: DbOrTx = db): Promise<StaffSsoSettings> {
    const roles = await sso.staffRoles(tx)
    return {
      connection: row && {
        enabled: row.enabled,
        displayName: row.displayName ?? '',
        oidc: {
          issuer: row.oidcIssuer ?? '',
          clientId: row.oidcClientId ?? '',
          clientSecretSet: Boolean(row.oidcClientSecret),
          scopes: row.oidcScopes ?? SSO_DEFAULT_SCOPES,
          emailClaim: row.oidcEmailClaim ?? 'email',
          nameClaim: row.oidcNameClaim ?? 'name',
        },
        roleClaim: row.oidcRoleClaim ?? DEFAULT_ROLE_CLAIM,
        updatedAt: row.updatedAt.toISOString(),
      },
      domains: await sso.domains(null, tx),
      roles: roles.map((r) => ({ claimValue: r.claimValue, role: r.role as StaffRoleMapping['role'] })),
      redirectUri,
    }
  }

  return {
    async settings(companyId: string): Promise<SsoSettings> {
      await requireCompany(companyId)
      return toSettings(await sso.findConnection(companyId), await sso.domains(companyId), companyId)
    },

    /** Creates or replaces the company's connection (OIDC or SAML). */
    async save(companyId: string, body: SaveSsoConnectionBody, ctx: AdminContext): Promise<SsoSettings> {
      await requireCompany(companyId)
      return body.protocol === 'saml' ? saveSaml(companyId, body, ctx) : saveOidc(companyId, body, ctx)
    },

    async remove(companyId: string, ctx: AdminContext): Promise<void> {
      await requireCompany(companyId)
      await db.transaction(async (tx) => {
        if (!(await sso.deleteConnection(companyId, tx))) throw new AppError('NOT_FOUND', M.notConfigured)
        await activity.record(tx, {
          action: 'SSO_CONNECTION_REMOVED',
          actor: ctx.actor,
          ipAddress: ctx.ip,
          details: { companyId },
        })
      })
    },

    /** The company's e-mail domains become exactly these; a domain of another company is a 409. */
    async setDomains(companyId: string, input: string[], ctx: AdminContext): Promise<SsoSettings> {
      await requireCompany(companyId)
      await replaceDomainsOf(companyId, input, ctx)
      return toSettings(await sso.findConnection(companyId), await sso.domains(companyId), companyId)
    },

    /** Runs discovery and reports what the provider publishes. */
    async test(companyId: string): Promise<SsoTestResult> {
      await requireCompany(companyId)
      const row = await sso.findConnection(companyId)
      if (!row) throw new AppError('NOT_FOUND', M.notConfigured)
      if (row.protocol === 'saml') return testSaml(row)
      return testOidc(row)
    },

    /** Public: only whether an e-mail's domain signs in through a connection, and the company's name. */
    async lookup(email: string): Promise<SsoLookup> {
      const domain = emailDomain(email)
      const owner = domain ? await sso.ownerOfDomain(domain) : null
      if (!owner?.connectionId || !owner.enabled || owner.removedAt) {
        return { sso: false, companyId: null, companyName: null, startPath: null }
      }
      if (owner.companyId === null) {
        return { sso: true, companyId: null, companyName: owner.staffName ?? 'staff', startPath: STAFF_START_PATH }
      }
      return {
        sso: true,
        companyId: owner.companyId,
        companyName: owner.companyName,
        startPath: `/api/auth/sso/${encodeURIComponent(owner.companyId)}/start`,
      }
    },

    /** Starts a sign-in: the provider's address and the flow's id (kept in a cookie). */
    async start(companyId: string | null, client: ClientInfo): Promise<{ location: string; flowId: string | null }> {
      // Null: the vendor's staff connection.
      const connection = companyId === null ? await sso.findStaffConnection() : await sso.findConnection(companyId)
      const saml = connection?.protocol === 'saml' ? samlSettingsOf(connection) : null
      if (!connection?.enabled || (connection.protocol !== 'oidc' && !saml)) {
        return {
          location: await refuse(
            new SsoRefusal('unavailable', 'no connection'),
            client,
            companyId?.slice(0, 200) ?? null,
          ),
          flowId: null,
        }
      }
      if (saml && companyId !== null) {
        // The AuthnRequest's id is the flow's state: the identity provider's answer names it
        // (InResponseTo), since its POST comes from another site without this site's cookies.
        await sso.deleteExpired(new Date(Date.now() - 24 * 3_600_000))
        const requestId = `_${randomBytes(20).toString('hex')}`
        const location = await authnRequestUrl(saml, spOf(companyId), requestId)
        const flowId = await sso.insertFlow({
          connectionId: connection.id,
          state: requestId,
          nonce: '',
          codeVerifier: '',
          expiresAt: new Date(Date.now() + FLOW_MINUTES * 60_000),
        })
        return { location, flowId }
      }
      let config: Configuration
      try {
        config = await providerOf(connection)
      } catch (error) {
        const refusal = new SsoRefusal('provider', `discovery failed: ${refusalOf(error)}`)
        return { location: await refuse(refusal, client, companyId), flowId: null }
      }
      await sso.deleteExpired(new Date(Date.now() - 24 * 3_600_000))
      const flow = await authorizationUrl(config, redirectUri, connection.oidcScopes ?? SSO_DEFAULT_SCOPES)
      const flowId = await sso.insertFlow({
        connectionId: connection.id,
        state: flow.state,
        nonce: flow.nonce,
        codeVerifier: flow.codeVerifier,
        expiresAt: new Date(Date.now() + FLOW_MINUTES * 60_000),
      })
      return { location: flow.url.toString(), flowId }
    },

    /**
     * The provider's answer. The flow comes from the browser's cookie (the one that started
     * it), the state must match it, the flow is used once and in time; then openid-client
     * checks the code exchange and the ID token, and the claims are mapped to a portal user.
     * Every refusal is logged and sends the browser back to the sign-in page with a code.
     */
    async callback(query: URLSearchParams, flowId: string | null, client: ClientInfo): Promise<string> {
      // The address the provider sent the browser to: its redirect_uri goes with the code exchange.
      const callbackUrl = new URL(redirectUri)
      callbackUrl.search = query.toString()
      let companyId: string | null = null
      try {
        const flow = flowId && /^[0-9a-f-]{36}$/i.test(flowId) ? await sso.findFlow(flowId) : null
        if (!flow) throw new SsoRefusal('failed', 'callback without a started flow')
        const connection = await sso.findConnectionById(flow.connectionId)
        if (!connection) throw new SsoRefusal('unavailable', 'connection removed')
        companyId = connection.companyId
        if (callbackUrl.searchParams.get('state') !== flow.state) throw new SsoRefusal('failed', 'state mismatch')
        if (!(await sso.consumeFlow(flow.id))) throw new SsoRefusal('expired', 'flow already used')
        if (flow.expiresAt <= new Date()) throw new SsoRefusal('expired', 'flow expired')
        const providerError = callbackUrl.searchParams.get('error')
        if (providerError) throw new SsoRefusal('failed', `provider error ${providerError.slice(0, 60)}`)
        let claims: Record<string, unknown>
        try {
          claims = await finishFlow(await providerOf(connection), callbackUrl, flow)
        } catch (error) {
          throw new SsoRefusal('failed', `id token or code refused: ${refusalOf(error)}`)
        }
        return await handOff(connection, oidcIdentity(connection, claims), providerSecondFactors(claims.amr))
      } catch (error) {
        if (error instanceof SsoRefusal) return refuse(error, client, companyId)
        throw error
      }
    },

    /** This portal's SAML service-provider metadata for one company (null: no such company). */
    async samlMetadata(companyId: string): Promise<string | null> {
      if (!(await sso.findCompany(companyId))) return null
      return serviceProviderMetadata(spOf(companyId))
    },

    /**
     * The identity provider's POST to the company's ACS. The response is checked (see
     * `checkResponse`), its assertion id accepted once, and it must answer a flow this portal
     * started for this connection, unless the connection accepts unsolicited responses. Every
     * refusal is logged with its reason and sends the browser back to the sign-in page.
     */
    async samlAcs(companyId: string, samlResponse: string, client: ClientInfo): Promise<string> {
      const connection = await sso.findConnection(companyId)
      const saml = connection?.protocol === 'saml' ? samlSettingsOf(connection) : null
      const known = connection ? companyId : null
      try {
        if (!connection?.enabled || !saml) throw new SsoRefusal('unavailable', 'no SAML connection')
        let checked
        try {
          checked = await checkResponse(samlResponse, saml, spOf(companyId))
        } catch (error) {
          if (error instanceof SamlRefusal) throw new SsoRefusal('failed', error.message)
          throw error
        }
        if (!(await sso.rememberAssertion(checked.issuer, checked.assertionId, checked.expiresAt))) {
          throw new SsoRefusal('expired', 'assertion replayed')
        }
        if (checked.inResponseTo) {
          const flow = await sso.findFlowByState(checked.inResponseTo)
          if (!flow || flow.connectionId !== connection.id) {
            throw new SsoRefusal('failed', 'InResponseTo of no started flow')
          }
          if (!(await sso.consumeFlow(flow.id))) throw new SsoRefusal('expired', 'flow already used')
          if (flow.expiresAt <= new Date()) throw new SsoRefusal('expired', 'flow expired')
        } else if (!saml.allowUnsolicited) {
          throw new SsoRefusal('failed', 'unsolicited response not enabled')
        }
        return await handOff(connection, samlIdentity(saml, checked.attributes))
      } catch (error) {
        if (error instanceof SsoRefusal) return refuse(error, client, known, 'saml')
        throw error
      }
    },

    /** The sign-in page's one-time code for the portal's own tokens (as a password sign-in gets). */
    async exchange(code: string, client: ClientInfo): Promise<SignInResponse> {
      const handoff = await sso.consumeHandoff(hash(code), new Date())
      const expired = new AppError('UNAUTHENTICATED', 'This sign-in link has expired. Please sign in again.')
      if (!handoff) throw expired
      const row = await users.findById(handoff.userId)
      const user = row && (await users.findCredentialsByEmail(row.email))
      if (!user || user.status !== 'active') throw expired
      const connection = await sso.findConnectionById(handoff.connectionId)
      // The second factor hook: a user with a factor (or required to enrol) gets the second
      // step first; the connection id lets that step link the session to the connection.
      return auth.signIn(
        user,
        client,
        {
          message: 'User signed in',
          method: connection?.protocol === 'saml' ? 'saml' : 'oidc',
          companyId: connection?.companyId ?? null,
          ssoConnectionId: handoff.connectionId,
          // The provider's own second factor; the company's rule says whether it counts.
          ...(handoff.amr?.length ? { providerAmr: handoff.amr } : {}),
        },
        (sessionId, tx) => sso.insertSession(sessionId, handoff.connectionId, tx),
      )
    },

    /** Ends the portal session; where the provider offers it, the address that ends its own. */
    async logout(refreshToken: string, client: ClientInfo): Promise<SsoLogoutResponse> {
      const ended = await auth.revoke(refreshToken, client)
      const connection = ended ? await sso.connectionOfSession(ended.sessionId) : null
      let url: string | null = null
      if (connection?.protocol === 'oidc') {
        try {
          url = endSessionUrl(await providerOf(connection), `${deps.config.publicUrl}/login`)
        } catch (error) {
          log.warn({ err: error }, 'the provider could not be asked for its end-session address')
        }
      }
      return { message: 'Signed out', endSessionUrl: url }
    },

    async staffSettings(): Promise<StaffSsoSettings> {
      return toStaffSettings(await sso.findStaffConnection())
    },

    /** Creates or replaces the staff connection (OIDC); the secret is kept when left out. */
    async saveStaff(body: SaveStaffSsoBody, ctx: AdminContext): Promise<StaffSsoSettings> {
      const values = oidcValues(body)
      const displayName = body.displayName.trim()
      if (!displayName) throw invalid('displayName', 'Enter the name the sign-in screen shows.')
      const current = await sso.findStaffConnection()
      const row = await db.transaction(async (tx) => {
        const saved = await sso.saveStaffConnection(
          {
            protocol: 'oidc',
            enabled: body.enabled ?? true,
            ssoRequired: false,
            createUsers: true,
            ...values,
            oidcClientSecret: current?.oidcClientSecret ?? null,
            samlSettings: null,
            displayName: displayName.slice(0, 100),
            oidcRoleClaim: body.roleClaim?.trim() || DEFAULT_ROLE_CLAIM,
          },
          tx,
        )
        if (body.clientSecret !== undefined) {
          const secret = body.clientSecret.trim()
          saved.oidcClientSecret = secret ? box().seal(secret, secretContext(saved.id)) : null
          await sso.setClientSecret(saved.id, saved.oidcClientSecret, tx)
        }
        await activity.record(tx, {
          action: 'SSO_CONNECTION_SAVED',
          actor: ctx.actor,
          ipAddress: ctx.ip,
          details: {
            staff: true,
            created: !current,
            clientSecretChanged: body.clientSecret !== undefined,
            after: (await toStaffSettings(saved, tx)).connection,
          },
        })
        return saved
      })
      return toStaffSettings(row)
    },

    async removeStaff(ctx: AdminContext): Promise<void> {
      await db.transaction(async (tx) => {
        if (!(await sso.deleteStaffConnection(tx))) throw new AppError('NOT_FOUND', M.staffNotConfigured)
        await activity.record(tx, {
          action: 'SSO_CONNECTION_REMOVED',
          actor: ctx.actor,
          ipAddress: ctx.ip,
          details: { staff: true },
        })
      })
    },

    async setStaffDomains(input: string[], ctx: AdminContext): Promise<StaffSsoSettings> {
      await replaceDomainsOf(null, input, ctx)
      return toStaffSettings(await sso.findStaffConnection())
    },

    /** The whole mapping of group or role claim values to roles; a value maps to one role. */
    async setStaffRoles(roles: StaffRoleMapping[], ctx: AdminContext): Promise<StaffSsoSettings> {
      const mappings = roles.map((r) => ({ claimValue: r.claimValue.trim(), role: r.role }))
      const emptyAt = mappings.findIndex((m) => !m.claimValue)
      if (emptyAt >= 0) throw invalid(`roles/${emptyAt}/claimValue`, 'Enter the group or role value.')
      const seen = new Set<string>()
      const twiceAt = mappings.findIndex((m) => seen.size === seen.add(m.claimValue).size)
      if (twiceAt >= 0) {
        throw invalid(`roles/${twiceAt}/claimValue`, `The value "${mappings[twiceAt]!.claimValue}" is mapped twice.`)
      }
      const before = await sso.staffRoles()
      await db.transaction(async (tx) => {
        await sso.replaceStaffRoles(mappings, tx)
        await activity.record(tx, {
          action: 'SSO_STAFF_ROLES_UPDATED',
          actor: ctx.actor,
          ipAddress: ctx.ip,
          details: { before, after: mappings },
        })
      })
      return toStaffSettings(await sso.findStaffConnection())
    },

    async testStaff(): Promise<SsoTestResult> {
      const row = await sso.findStaffConnection()
      if (!row) throw new AppError('NOT_FOUND', M.staffNotConfigured)
      return testOidc(row)
    },

    async demo(): Promise<SsoDemo> {
      const demo = deps.demo
      const company = demo ? await this.lookup(`someone@${demo.domain}`) : null
      if (!demo || !company?.sso) {
        return { companyId: null, companyName: null, accounts: [], password: null, staff: null }
      }
      const staff = await sso.findStaffConnection()
      return {
        companyId: company.companyId,
        companyName: company.companyName,
        accounts: demo.accounts,
        // oidc-provider's development sign-in page takes any password.
        password: 'any password',
        staff:
          staff?.enabled && demo.staffAccounts.length > 0
            ? { name: staff.displayName ?? 'staff', startPath: STAFF_START_PATH, accounts: demo.staffAccounts }
            : null,
      }
    },
  }
}
export type SsoService = ReturnType<typeof createSsoService>
