/** Single sign-on per company: the texts and input rules both the screen and the server use. */
export const SSO_MESSAGES = {
  domainInvalid: 'Enter a domain such as example.com.',
  tooManyDomains: 'A company can have at most 20 e-mail domains.',
  issuerInvalid: 'The issuer must be an https:// URL (http:// only for localhost).',
  notConfigured: 'This company has no single sign-on connection.',
  staffNotConfigured: 'There is no staff sign-in connection.',
  noConnection: 'Single sign-on is not set up for this company. Sign in with your e-mail and password.',
  samlMetadataMissing: 'Paste the identity provider’s metadata XML or give its metadata URL.',
  samlMetadataUrlInvalid: 'The metadata URL must be an https:// URL (http:// only for localhost).',
  ssoRequired: (company: string) =>
    `${company} signs in with single sign-on. Enter your e-mail address and choose "Continue with ${company} sign-in".`,
} as const

export const SSO_DOMAINS_MAX = 20
/** An identity provider's metadata document, pasted or fetched, is at most this long. */
export const SAML_METADATA_MAX_CHARS = 200_000
export const SSO_DEFAULT_SCOPES = 'openid email profile'

/** A domain as stored: trimmed, lower case, without a leading @. */
export function normaliseDomain(value: string): string {
  return value.trim().toLowerCase().replace(/^@/, '')
}

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/

export function domainError(value: string): string | null {
  return DOMAIN.test(normaliseDomain(value)) ? null : SSO_MESSAGES.domainInvalid
}

/** The domain of an e-mail address, lower case; null when it has none. */
export function emailDomain(email: string): string | null {
  const at = email.trim().lastIndexOf('@')
  if (at < 1) return null
  const domain = normaliseDomain(email.trim().slice(at + 1))
  return DOMAIN.test(domain) ? domain : null
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]'])

/** An issuer is https; plain http only on this machine (the demo provider, tests). */
export function issuerError(value: string): string | null {
  if (!URL.canParse(value)) return SSO_MESSAGES.issuerInvalid
  const url = new URL(value)
  if (url.protocol === 'https:') return null
  return url.protocol === 'http:' && LOOPBACK.has(url.hostname) ? null : SSO_MESSAGES.issuerInvalid
}

/**
 * Why a single sign-on attempt ended without a session: the callback sends the sign-in page
 * one of these codes (never free text, so a crafted link cannot put words on the page).
 */
export const SSO_ERRORS = {
  unavailable: 'Single sign-on is not available for this company. Sign in with your e-mail and password.',
  failed: 'Single sign-on did not complete. Please try again.',
  expired: 'The sign-in took too long or was already used. Please try again.',
  provider: 'Your company’s sign-in service could not be reached. Please try again later.',
  no_email: 'Your company’s sign-in service did not give an e-mail address for your account.',
  other_company: 'This e-mail address belongs to another company. Sign in through your own company.',
  unknown_user: 'There is no portal account for this e-mail address. Ask your administrator for access.',
  suspended: 'Your account is suspended. Contact your administrator.',
  not_member: 'This account cannot sign in through this company’s sign-in service.',
  no_role: 'Your account has no portal role at your sign-in service. Ask your administrator for access.',
  logout_failed:
    'You are signed out of the portal, but your company’s sign-in service did not confirm that it signed you out. Close the browser to end that session.',
} as const
export type SsoErrorCode = keyof typeof SSO_ERRORS
