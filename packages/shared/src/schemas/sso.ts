import { Type, type Static } from 'typebox'
import { SAML_METADATA_MAX_CHARS, SSO_DOMAINS_MAX } from '../rules/sso'
import { FreeObject, Nullable, OneOf, OwnerCompanyFields, PickProperties, UuidSchema } from './common'
import { UserSchema } from './users'

export * from '../rules/sso'

/** The protocols a connection may use. */
export const SSO_PROTOCOLS = ['oidc', 'saml'] as const
export type SsoProtocol = (typeof SSO_PROTOCOLS)[number]

/** OIDC settings as the API returns them: the client secret is write-only (only whether one is set). */
export const OidcSettingsSchema = Type.Object({
  issuer: Type.String(),
  clientId: Type.String(),
  clientSecretSet: Type.Boolean(),
  scopes: Type.String(),
  emailClaim: Type.String(),
  nameClaim: Type.String(),
})
export type OidcSettings = Static<typeof OidcSettingsSchema>

/** An identity provider's signing certificate as the screens show it. */
export const SamlCertificateSchema = Type.Object({
  subject: Type.String(),
  notAfter: Type.String({ description: 'ISO date the certificate expires' }),
})
export type SamlCertificate = Static<typeof SamlCertificateSchema>

/** SAML settings as the API returns them: what was read from the identity provider's metadata. */
export const SamlSettingsSchema = Type.Object({
  metadataUrl: Nullable(Type.String()),
  idpEntityId: Type.String(),
  ssoUrl: Type.String(),
  certificates: Type.Array(SamlCertificateSchema),
  allowUnsolicited: Type.Boolean(),
  emailAttribute: Type.String(),
  nameAttribute: Type.String(),
})
export type SamlSettings = Static<typeof SamlSettingsSchema>

export const SsoConnectionSchema = Type.Object({
  protocol: OneOf(SSO_PROTOCOLS),
  enabled: Type.Boolean(),
  ssoRequired: Type.Boolean(),
  createUsers: Type.Boolean(),
  oidc: Nullable(OidcSettingsSchema),
  saml: Nullable(SamlSettingsSchema),
  updatedAt: Type.String(),
})
export type SsoConnection = Static<typeof SsoConnectionSchema>

/** A client user allowed a password although the company requires single sign-on. */
export const SsoPasswordUserSchema = Type.Object(PickProperties(UserSchema, ['id', 'email', 'name']))
export type SsoPasswordUser = Static<typeof SsoPasswordUserSchema>

/** GET /api/admin/companies/{id}/sso: the connection (or none), the domains, the URL to register. */
export const SsoSettingsSchema = Type.Object({
  connection: Nullable(SsoConnectionSchema),
  domains: Type.Array(Type.String()),
  /** Named client users who keep their password when "single sign-on required" is on. */
  passwordUsers: Type.Array(SsoPasswordUserSchema),
  redirectUri: Type.String(),
  /** This portal as a SAML service provider, for the identity provider's administrator. */
  saml: Type.Object({ entityId: Type.String(), acsUrl: Type.String(), metadataUrl: Type.String() }),
})
export type SsoSettings = Static<typeof SsoSettingsSchema>

const Text = (maxLength: number) => Type.String({ minLength: 1, maxLength })
/** A company connection's switches, whichever protocol it uses. */
const ConnectionRuleFields = {
  enabled: Type.Optional(Type.Boolean()),
  ssoRequired: Type.Boolean(),
  createUsers: Type.Boolean(),
}
/** The OIDC client a company's or the staff connection signs in through. */
const OidcClientFields = {
  issuer: Text(500),
  clientId: Text(500),
  clientSecret: Type.Optional(Type.String({ maxLength: 2000 })),
  scopes: Type.Optional(Type.String({ maxLength: 500 })),
  emailClaim: Type.Optional(Type.String({ maxLength: 100 })),
  nameClaim: Type.Optional(Type.String({ maxLength: 100 })),
}

/** PUT /api/admin/companies/{id}/sso with OIDC. A client secret left out keeps the stored one. */
export const SaveOidcConnectionBodySchema = Type.Object({
  protocol: Type.Literal('oidc'),
  ...ConnectionRuleFields,
  ...OidcClientFields,
})
export type SaveOidcConnectionBody = Static<typeof SaveOidcConnectionBodySchema>

/**
 * PUT /api/admin/companies/{id}/sso with SAML: the identity provider's metadata, pasted or at a
 * URL the server fetches on save; neither keeps the stored metadata (to change the rules only).
 */
export const SaveSamlConnectionBodySchema = Type.Object({
  protocol: Type.Literal('saml'),
  ...ConnectionRuleFields,
  metadataXml: Type.Optional(Type.String({ maxLength: SAML_METADATA_MAX_CHARS })),
  metadataUrl: Type.Optional(Type.String({ maxLength: 500 })),
  allowUnsolicited: Type.Optional(Type.Boolean()),
  emailAttribute: Type.Optional(Type.String({ maxLength: 200 })),
  nameAttribute: Type.Optional(Type.String({ maxLength: 200 })),
})
export type SaveSamlConnectionBody = Static<typeof SaveSamlConnectionBodySchema>

export const SaveSsoConnectionBodySchema = Type.Union([SaveOidcConnectionBodySchema, SaveSamlConnectionBodySchema])
export type SaveSsoConnectionBody = Static<typeof SaveSsoConnectionBodySchema>

/** PUT /api/admin/companies/{id}/sso/domains: the company's whole list of domains. */
export const SsoDomainsBodySchema = Type.Object({
  domains: Type.Array(Type.String({ maxLength: 253 }), { maxItems: SSO_DOMAINS_MAX * 2 }),
})
export type SsoDomainsBody = Static<typeof SsoDomainsBodySchema>

/** PUT /api/admin/companies/{id}/sso/password-users: the whole list of users allowed a password. */
export const SsoPasswordUsersBodySchema = Type.Object({
  userIds: Type.Array(UuidSchema, { maxItems: 500 }),
})
export type SsoPasswordUsersBody = Static<typeof SsoPasswordUsersBodySchema>

/** POST /api/admin/companies/{id}/sso/test/start: the provider's address to send the admin's browser to. */
export const SsoTestStartSchema = Type.Object({ location: Type.String() })
export type SsoTestStart = Static<typeof SsoTestStartSchema>

/** GET /api/admin/companies/{id}/sso/test/{flowId}: what the provider sent in the admin's test sign-in. */
export const SsoFlowTestResultSchema = Type.Object({
  ok: Type.Boolean(),
  message: Type.String(),
  protocol: OneOf(SSO_PROTOCOLS),
  /** The ID token's claims (OIDC) or the assertion's attributes (SAML); never a token. */
  claims: FreeObject(),
  /** The e-mail and name the portal reads from them through the connection's settings. */
  email: Nullable(Type.String()),
  name: Nullable(Type.String()),
  testedAt: Type.String(),
})
export type SsoFlowTestResult = Static<typeof SsoFlowTestResultSchema>

/** POST /api/admin/companies/{id}/sso/test: what the provider publishes (discovery). */
export const SsoTestResultSchema = Type.Object({
  ok: Type.Boolean(),
  message: Type.String(),
  issuer: Type.Optional(Type.String()),
  authorizationEndpoint: Type.Optional(Type.String()),
  tokenEndpoint: Type.Optional(Type.String()),
  jwksUri: Type.Optional(Type.String()),
  userinfoEndpoint: Type.Optional(Type.String()),
  endSessionEndpoint: Type.Optional(Type.String()),
  scopesSupported: Type.Optional(Type.Array(Type.String())),
  signingAlgorithms: Type.Optional(Type.Array(Type.String())),
  idpEntityId: Type.Optional(Type.String()),
  ssoUrl: Type.Optional(Type.String()),
  certificates: Type.Optional(Type.Array(SamlCertificateSchema)),
})
export type SsoTestResult = Static<typeof SsoTestResultSchema>

/** GET /api/auth/sso/lookup?email=: only whether SSO is offered and the company's shown name. */
export const SsoLookupQuerySchema = Type.Object({ email: Type.String({ minLength: 1, maxLength: 254 }) })
export const SsoLookupSchema = Type.Object({
  sso: Type.Boolean(),
  /** Null for the vendor's staff domains (and when there is no single sign-on). */
  companyId: Nullable(Type.String()),
  /** The company's, or the staff connection's, name for "Continue with <name> sign-in". */
  companyName: Nullable(Type.String()),
  /** Where the browser starts the sign-in. */
  startPath: Nullable(Type.String()),
})
export type SsoLookup = Static<typeof SsoLookupSchema>

/** POST /api/auth/sso/exchange: the one-time code the callback put in the sign-in page's address. */
export const SsoExchangeBodySchema = Type.Object({ code: Type.String({ minLength: 1, maxLength: 200 }) })

/** POST /api/auth/sso/logout: the portal session ended; where to end the provider's, if it offers it. */
export const SsoLogoutResponseSchema = Type.Object({
  message: Type.String(),
  endSessionUrl: Nullable(Type.String()),
})
export type SsoLogoutResponse = Static<typeof SsoLogoutResponseSchema>

/** GET /api/auth/sso/demo: demo mode's built-in provider and its accounts (empty otherwise). */
export const SsoDemoSchema = Type.Object({
  ...OwnerCompanyFields,
  accounts: Type.Array(Type.Object({ email: Type.String(), name: Type.String() })),
  password: Nullable(Type.String()),
  /** The demo's staff connection and its account(s), each with the role its group maps to. */
  staff: Nullable(
    Type.Object({
      name: Type.String(),
      startPath: Type.String(),
      accounts: Type.Array(Type.Object({ email: Type.String(), name: Type.String(), role: Type.String() })),
    }),
  ),
})
export type SsoDemo = Static<typeof SsoDemoSchema>

/** The roles a staff connection can give (never client: clients sign in through their company). */
export const STAFF_SSO_ROLES = ['admin', 'internal', 'sales'] as const

export const StaffRoleMappingSchema = Type.Object({
  claimValue: Type.String({ minLength: 1, maxLength: 200 }),
  role: OneOf(STAFF_SSO_ROLES),
})
export type StaffRoleMapping = Static<typeof StaffRoleMappingSchema>

/** GET /api/admin/sso/staff: the vendor's staff connection (OIDC), its domains and role mapping. */
export const StaffSsoSettingsSchema = Type.Object({
  connection: Nullable(
    Type.Object({
      enabled: Type.Boolean(),
      displayName: Type.String(),
      oidc: OidcSettingsSchema,
      roleClaim: Type.String(),
      updatedAt: Type.String(),
    }),
  ),
  domains: Type.Array(Type.String()),
  roles: Type.Array(StaffRoleMappingSchema),
  redirectUri: Type.String(),
})
export type StaffSsoSettings = Static<typeof StaffSsoSettingsSchema>

/** PUT /api/admin/sso/staff. A client secret left out keeps the stored one. */
export const SaveStaffSsoBodySchema = Type.Object({
  enabled: Type.Optional(Type.Boolean()),
  displayName: Text(100),
  ...OidcClientFields,
  roleClaim: Type.Optional(Type.String({ maxLength: 100 })),
})
export type SaveStaffSsoBody = Static<typeof SaveStaffSsoBodySchema>

/** PUT /api/admin/sso/staff/roles: the whole mapping of claim values to roles. */
export const StaffRolesBodySchema = Type.Object({
  roles: Type.Array(StaffRoleMappingSchema, { maxItems: 50 }),
})
export type StaffRolesBody = Static<typeof StaffRolesBodySchema>
