import { generatedSsoKey, type AppConfig } from '../../config'
import { startOidcProvider, type RunningProvider } from './oidc-provider'
import { createSecretBox } from '../../lib/secret-box'
import type { SsoRepository } from './sso.repository'
import type { SsoDemoInfo } from './sso.service'

/** Demo mode's single sign-on company: its e-mail domain and the built-in provider's accounts. */
export const DEMO_SSO = {
  domain: 'sso-demo.local',
  clientId: 'dispatch-portal-demo',
  fallbackCompany: { id: 'demo-sso-company', name: 'Demo SSO Company' },
  accounts: [
    { email: 'dana@sso-demo.local', name: 'Dana Demo' },
    { email: 'lee@sso-demo.local', name: 'Lee Learner' },
  ],
} as const

/** Demo mode's staff connection: the vendor's own provider (the same built-in one, another client). */
export const DEMO_STAFF_SSO = {
  name: 'Demo Vendor',
  domain: 'staff-demo.local',
  clientId: 'dispatch-portal-staff',
  group: 'portal-internal',
  role: 'internal',
  accounts: [{ email: 'sam@staff-demo.local', name: 'Sam Staff' }],
} as const

/**
 * Demo mode: a real OIDC provider on loopback (DEMO_OIDC_PORT, any free port by default) whose
 * one client is this portal. Its client secret is made at each start and never leaves this process.
 */
export async function startDemoSso(config: AppConfig) {
  const clientSecret = crypto.randomUUID()
  const provider = await startOidcProvider({
    port: config.demoOidcPort,
    clients: [
      {
        clientId: DEMO_SSO.clientId,
        clientSecret,
        redirectUris: [`${config.publicUrl}/api/auth/sso/callback`],
        postLogoutRedirectUris: [`${config.publicUrl}/login`],
      },
      {
        clientId: DEMO_STAFF_SSO.clientId,
        clientSecret,
        redirectUris: [`${config.publicUrl}/api/auth/sso/callback`],
        postLogoutRedirectUris: [`${config.publicUrl}/login`],
      },
    ],
    accounts: [...DEMO_SSO.accounts, ...DEMO_STAFF_SSO.accounts.map((a) => ({ ...a, groups: [DEMO_STAFF_SSO.group] }))],
  })
  const info: SsoDemoInfo = {
    domain: DEMO_SSO.domain,
    accounts: [...DEMO_SSO.accounts],
    staffAccounts: DEMO_STAFF_SSO.accounts.map((a) => ({ ...a, role: DEMO_STAFF_SSO.role })),
  }
  return { provider, clientSecret, info }
}

/**
 * The demo company's connection and domain, pointed at this start's provider (its port may
 * change between starts). The company is a simulated one with dispatches other than the demo
 * client's, so SSO users see data; new users are created on first sign-in.
 */
export async function seedDemoSso(
  repository: SsoRepository,
  config: AppConfig,
  demo: { provider: RunningProvider; clientSecret: string },
  avoidCompanyId: string | null,
): Promise<void> {
  const owner = await repository.ownerOfDomain(DEMO_SSO.domain)
  const companyId = owner?.companyId ?? (await repository.demoCompany(avoidCompanyId, DEMO_SSO.fallbackCompany))
  const existing = await repository.findConnection(companyId)
  const saved = await repository.saveConnection(companyId, {
    protocol: 'oidc',
    enabled: true,
    ssoRequired: existing?.ssoRequired ?? false,
    createUsers: true,
    oidcIssuer: demo.provider.issuer,
    oidcClientId: DEMO_SSO.clientId,
    oidcClientSecret: null,
    oidcScopes: 'openid email profile',
    oidcEmailClaim: 'email',
    oidcNameClaim: 'name',
    samlSettings: null,
  })
  const box = createSecretBox(config.ssoSecretKey ?? generatedSsoKey(config.dataDir))
  await repository.setClientSecret(
    saved.id,
    box.seal(demo.clientSecret, `sso_connection:${saved.id}:oidc_client_secret`),
  )
  if (!owner) await repository.replaceDomains(companyId, [DEMO_SSO.domain])
}

/**
 * The demo staff connection, pointed at this start's provider, with its domain and the mapping
 * of the demo group to internal. A staff connection an admin set up to another provider is left
 * alone (as are mappings once any exist).
 */
export async function seedDemoStaffSso(
  repository: SsoRepository,
  config: AppConfig,
  demo: { provider: RunningProvider; clientSecret: string },
): Promise<void> {
  const existing = await repository.findStaffConnection()
  if (existing && existing.oidcClientId !== DEMO_STAFF_SSO.clientId) return
  const saved = await repository.saveStaffConnection({
    protocol: 'oidc',
    enabled: true,
    ssoRequired: false,
    createUsers: true,
    oidcIssuer: demo.provider.issuer,
    oidcClientId: DEMO_STAFF_SSO.clientId,
    oidcClientSecret: null,
    oidcScopes: 'openid email profile groups',
    oidcEmailClaim: 'email',
    oidcNameClaim: 'name',
    samlSettings: null,
    displayName: existing?.displayName ?? DEMO_STAFF_SSO.name,
    oidcRoleClaim: 'groups',
  })
  const box = createSecretBox(config.ssoSecretKey ?? generatedSsoKey(config.dataDir))
  await repository.setClientSecret(
    saved.id,
    box.seal(demo.clientSecret, `sso_connection:${saved.id}:oidc_client_secret`),
  )
  if ((await repository.ownerOfDomain(DEMO_STAFF_SSO.domain)) === null) {
    await repository.replaceDomains(null, [...(await repository.domains(null)), DEMO_STAFF_SSO.domain])
  }
  if ((await repository.staffRoles()).length === 0) {
    await repository.replaceStaffRoles([{ claimValue: DEMO_STAFF_SSO.group, role: DEMO_STAFF_SSO.role }])
  }
}
