import {
  issuerError,
  ownCompanyOnly,
  ROLES,
  SAML_METADATA_MAX_CHARS,
  SSO_MESSAGES as M,
  type SaveOidcConnectionBody,
  type SaveSamlConnectionBody,
  type SaveSsoConnectionBody,
  type SsoSettings,
  type SsoTestResult,
} from '@portal/shared'
import { AppError } from '../../lib/app-error'
import { certificateInfo, fetchMetadata, parseIdpMetadata, SamlMetadataError, type StoredSamlSettings } from './saml'
import { type AdminContext, invalid, oidcClientOf, type SsoContext } from './sso-context'
import { createReplaceDomains } from './sso-domains'
import type { SsoConnectionRow } from './sso.repository'

/** The roles a company's rules govern: its own users (staff are never a company's). */
const COMPANY_ROLES = ROLES.filter((role) => ownCompanyOnly(role))

/** A company's connection, domains and rules, as the admin's "Sign-in" tab manages them. */
export function createSsoAdmin(ctx: SsoContext) {
  const { db, sso } = ctx
  const replaceDomainsOf = createReplaceDomains(ctx)

  /** The connection as the API shows it (whether a secret is set, never the secret). */
  function connectionOf(row: SsoConnectionRow | null): SsoSettings['connection'] {
    const saml = row?.protocol === 'saml' ? ctx.samlSettingsOf(row) : null
    return (
      row && {
        protocol: row.protocol as 'oidc' | 'saml',
        enabled: row.enabled,
        ssoRequired: row.ssoRequired,
        createUsers: row.createUsers,
        oidc: row.protocol === 'oidc' ? oidcClientOf(row) : null,
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
      }
    )
  }

  async function settingsOf(companyId: string): Promise<SsoSettings> {
    const sp = ctx.spOf(companyId)
    return {
      connection: connectionOf(await sso.findConnection(companyId)),
      domains: await sso.domains(companyId),
      passwordUsers: await sso.passwordUsers(companyId),
      redirectUri: ctx.redirectUri,
      saml: { entityId: sp.entityId, acsUrl: sp.acsUrl, metadataUrl: `${sp.entityId}/metadata` },
    }
  }

  /** What a saved connection of either protocol takes alike: the protocol and the three switches. */
  const switchesOf = (protocol: 'oidc' | 'saml', body: SaveOidcConnectionBody | SaveSamlConnectionBody) => ({
    protocol,
    enabled: body.enabled ?? true,
    ssoRequired: body.ssoRequired,
    createUsers: body.createUsers,
  })

  /** OIDC: the issuer, client and claims; the secret is kept when left out. */
  async function saveOidc(companyId: string, body: SaveOidcConnectionBody, admin: AdminContext) {
    const values = ctx.oidcValues(body)
    const current = await sso.findConnection(companyId)
    await db.transaction(async (tx) => {
      const saved = await sso.saveConnection(
        companyId,
        {
          ...switchesOf('oidc', body),
          ...values,
          // A new secret is sealed below, bound to the row's id.
          oidcClientSecret: current?.protocol === 'oidc' ? current.oidcClientSecret : null,
          samlSettings: null,
        },
        tx,
      )
      await ctx.replaceClientSecret(saved, body.clientSecret, tx)
      await ctx.recordAdmin(
        'SSO_CONNECTION_SAVED',
        admin,
        // The settings as the API shows them: whether a secret is set, never the secret.
        {
          companyId,
          created: !current,
          clientSecretChanged: body.clientSecret !== undefined,
          after: connectionOf(saved),
        },
        tx,
      )
    })
    return settingsOf(companyId)
  }

  /**
   * SAML: the identity provider's metadata, pasted or fetched now from its URL, is read and
   * checked before anything is saved; saved without metadata, the stored one stays.
   */
  async function saveSaml(companyId: string, body: SaveSamlConnectionBody, admin: AdminContext) {
    const current = await sso.findConnection(companyId)
    const stored = current?.protocol === 'saml' ? ctx.samlSettingsOf(current) : null
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
    await db.transaction(async (tx) => {
      const saved = await sso.saveConnection(
        companyId,
        {
          ...switchesOf('saml', body),
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
      await ctx.recordAdmin(
        'SSO_CONNECTION_SAVED',
        admin,
        { companyId, created: !current, after: connectionOf(saved) },
        tx,
      )
    })
    return settingsOf(companyId)
  }

  /** SAML's test: the stored metadata read again (or fetched again from its URL), what it says. */
  async function testSaml(row: SsoConnectionRow): Promise<SsoTestResult> {
    const stored = ctx.samlSettingsOf(row)
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

  return {
    replaceDomainsOf,

    async settings(companyId: string): Promise<SsoSettings> {
      await ctx.requireCompany(companyId)
      return settingsOf(companyId)
    },

    /** Creates or replaces the company's connection (OIDC or SAML). */
    async save(companyId: string, body: SaveSsoConnectionBody, admin: AdminContext): Promise<SsoSettings> {
      await ctx.requireCompany(companyId)
      return body.protocol === 'saml' ? saveSaml(companyId, body, admin) : saveOidc(companyId, body, admin)
    },

    async remove(companyId: string, admin: AdminContext): Promise<void> {
      await ctx.requireCompany(companyId)
      await db.transaction(async (tx) => {
        if (!(await sso.deleteConnection(companyId, tx))) throw new AppError('NOT_FOUND', M.notConfigured)
        await ctx.recordAdmin('SSO_CONNECTION_REMOVED', admin, { companyId }, tx)
      })
    },

    /** The company's e-mail domains become exactly these; a domain of another company is a 409. */
    async setDomains(companyId: string, input: string[], admin: AdminContext): Promise<SsoSettings> {
      await ctx.requireCompany(companyId)
      await replaceDomainsOf(companyId, input, admin)
      return settingsOf(companyId)
    },

    /**
     * The company's users who keep their password under "single sign-on required" become exactly
     * these; an id that is not one of the company's own users is refused, naming its place.
     */
    async setPasswordUsers(companyId: string, input: string[], admin: AdminContext): Promise<SsoSettings> {
      await ctx.requireCompany(companyId)
      const ids = [...new Set(input)]
      const known = new Set(await sso.companyUsersAmong(companyId, ids, COMPANY_ROLES))
      const badAt = input.findIndex((id) => !known.has(id))
      if (badAt >= 0) {
        throw invalid(`userIds/${badAt}`, 'Choose a user of this company (its own users, not staff).')
      }
      const before = (await sso.passwordUsers(companyId)).map((u) => u.email)
      await db.transaction(async (tx) => {
        await sso.replacePasswordUsers(companyId, ids, tx)
        await ctx.recordAdmin(
          'SSO_PASSWORD_USERS_UPDATED',
          admin,
          { companyId, before, after: (await sso.passwordUsers(companyId, tx)).map((u) => u.email) },
          tx,
        )
      })
      return settingsOf(companyId)
    },

    /** Runs discovery (OIDC) or reads the metadata again (SAML) and reports what the provider publishes. */
    async test(companyId: string): Promise<SsoTestResult> {
      await ctx.requireCompany(companyId)
      const row = await sso.findConnection(companyId)
      if (!row) throw new AppError('NOT_FOUND', M.notConfigured)
      if (row.protocol === 'saml') return testSaml(row)
      return ctx.testOidc(row)
    },
  }
}
