import { X509Certificate } from 'node:crypto'
import { generateServiceProviderMetadata, SAML, ValidateInResponseTo } from '@node-saml/node-saml'
import { XMLParser } from 'fast-xml-parser'
import type { SamlSubject } from './sso.repository'

/** Clocks of the identity provider and this server may differ this much (NotBefore, NotOnOrAfter). */
export const SAML_CLOCK_SKEW_MS = 2 * 60_000
/**
 * The ACS route's SAMLResponse field (base64) is at most this long: a real response with a few
 * attributes and a certificate is a few kilobytes; a huge one is refused before it is decoded.
 */
export const SAML_RESPONSE_MAX_CHARS = 200_000
/** Fetching an identity provider's metadata gives up after this long. */
const METADATA_TIMEOUT_MS = 10_000

const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect'

/** What the identity provider's metadata gives: who it is, where to send users, its signing keys. */
export interface IdpMetadata {
  entityId: string
  ssoUrl: string
  /** Its HTTP-Redirect single logout address; absent: it offers none (sign-out ends the portal session only). */
  sloUrl?: string | null
  /** Base64 DER of each signing certificate. */
  certificates: string[]
}

/** The stored `saml_settings` of a connection (all public: no secret is involved). */
export interface StoredSamlSettings extends IdpMetadata {
  metadataUrl: string | null
  metadataXml: string
  allowUnsolicited: boolean
  emailAttribute: string
  nameAttribute: string
}

/** This portal as a service provider for one connection. */
export interface ServiceProvider {
  entityId: string
  acsUrl: string
  /** Where the identity provider posts its LogoutResponse. */
  sloUrl: string
}

/** A problem with metadata, in words for the admin who pasted or linked it. */
export class SamlMetadataError extends Error {}

/** The parser of every SAML document here: namespaces dropped, attributes as `@name`, no entity expansion. */
export function samlParser() {
  return new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    removeNSPrefix: true,
    processEntities: false,
  })
}

/**
 * A DOCTYPE or entity declaration has no place in SAML; refusing it before any parser runs rules
 * out entity expansion ("billion laughs") and external entities whatever the parser's settings.
 */
export function hasDoctype(xml: string): boolean {
  return /<!\s*(DOCTYPE|ENTITY)/i.test(xml)
}

type Node = Record<string, unknown>
const list = (value: unknown): Node[] =>
  (Array.isArray(value) ? value : value === undefined ? [] : [value]).filter(
    (v): v is Node => typeof v === 'object' && v !== null,
  )
const text = (value: unknown): string =>
  typeof value === 'string' ? value : typeof value === 'object' && value ? text((value as Node)['#text']) : ''

/**
 * Reads an identity provider's metadata: its entity id, its HTTP-Redirect sign-in address and
 * its signing certificates (each checked to be a certificate). Prefixes are dropped, so `md:`
 * or a default namespace read the same.
 */
export function parseIdpMetadata(xml: string, urlAllowed: (url: string) => boolean): IdpMetadata {
  if (hasDoctype(xml)) throw new SamlMetadataError('The metadata contains a DOCTYPE or entity declaration.')
  let doc: Node
  try {
    doc = samlParser().parse(xml, true) as Node
  } catch {
    throw new SamlMetadataError('The metadata is not well-formed XML.')
  }
  const entities = [
    ...list(doc.EntityDescriptor),
    ...list(doc.EntitiesDescriptor).flatMap((e) => list(e.EntityDescriptor)),
  ]
  const entity = entities.find((e) => list(e.IDPSSODescriptor).length > 0)
  const idp = entity && list(entity.IDPSSODescriptor)[0]
  if (!entity || !idp) throw new SamlMetadataError('The metadata describes no identity provider (IDPSSODescriptor).')
  const entityId = typeof entity['@entityID'] === 'string' ? entity['@entityID'].trim() : ''
  if (!entityId) throw new SamlMetadataError('The metadata has no entityID.')
  const sso = list(idp.SingleSignOnService).find((s) => s['@Binding'] === REDIRECT_BINDING)
  const ssoUrl = typeof sso?.['@Location'] === 'string' ? sso['@Location'].trim() : ''
  if (!ssoUrl) throw new SamlMetadataError('The identity provider offers no HTTP-Redirect sign-in address.')
  if (!urlAllowed(ssoUrl)) {
    throw new SamlMetadataError('The sign-in address must be https:// (http:// only for localhost).')
  }
  const slo = list(idp.SingleLogoutService).find((s) => s['@Binding'] === REDIRECT_BINDING)
  const sloUrl = typeof slo?.['@Location'] === 'string' ? slo['@Location'].trim() : ''
  if (sloUrl && !urlAllowed(sloUrl)) {
    throw new SamlMetadataError('The single logout address must be https:// (http:// only for localhost).')
  }
  const certificates = list(idp.KeyDescriptor)
    .filter((k) => k['@use'] === undefined || k['@use'] === 'signing')
    .flatMap((k) => list(k.KeyInfo).flatMap((i) => list(i.X509Data)))
    .flatMap((d) => (Array.isArray(d.X509Certificate) ? d.X509Certificate : [d.X509Certificate]).map(text))
    .map((c) => c.replace(/\s+/g, ''))
    .filter(Boolean)
  if (certificates.length === 0) throw new SamlMetadataError('The metadata has no signing certificate.')
  for (const certificate of certificates) {
    try {
      new X509Certificate(Buffer.from(certificate, 'base64'))
    } catch {
      throw new SamlMetadataError('A signing certificate in the metadata could not be read.')
    }
  }
  return { entityId, ssoUrl, sloUrl: sloUrl || null, certificates: [...new Set(certificates)] }
}

/** A certificate's subject and expiry, for the admin (and the test connection action). */
export function certificateInfo(base64: string): { subject: string; notAfter: string } {
  const certificate = new X509Certificate(Buffer.from(base64, 'base64'))
  return { subject: certificate.subject.replace(/\n/g, ', '), notAfter: new Date(certificate.validTo).toISOString() }
}

const pem = (base64: string) =>
  `-----BEGIN CERTIFICATE-----\n${base64.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----`

/** Fetches metadata from the identity provider's URL (time-out and size bound). */
export async function fetchMetadata(url: string, maxChars: number): Promise<string> {
  let res: Response
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(METADATA_TIMEOUT_MS), redirect: 'error' })
  } catch (error) {
    throw new SamlMetadataError(
      `The metadata could not be fetched: ${error instanceof Error ? error.message.slice(0, 200) : 'network error'}.`,
    )
  }
  if (!res.ok) throw new SamlMetadataError(`The metadata URL answered ${res.status}.`)
  const body = await res.text()
  if (body.length > maxChars) throw new SamlMetadataError('The metadata is too long.')
  return body
}

/**
 * node-saml for one connection. Signed assertions are required (a signed response around an
 * unsigned assertion is not enough); audience and time window are node-saml's checks; the
 * request id, recipient, destination, issuer and replay are checked by `checkAssertion` below,
 * against the database rather than node-saml's in-memory cache, so any server process agrees.
 */
export function samlOf(settings: StoredSamlSettings, sp: ServiceProvider, requestId?: string) {
  return new SAML({
    idpCert: settings.certificates.map(pem),
    issuer: sp.entityId,
    audience: sp.entityId,
    callbackUrl: sp.acsUrl,
    entryPoint: settings.ssoUrl,
    idpIssuer: settings.entityId,
    ...(settings.sloUrl ? { logoutUrl: settings.sloUrl, logoutCallbackUrl: sp.sloUrl } : {}),
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    acceptedClockSkewMs: SAML_CLOCK_SKEW_MS,
    validateInResponseTo: ValidateInResponseTo.never,
    disableRequestedAuthnContext: true,
    identifierFormat: null,
    ...(requestId ? { generateUniqueId: () => requestId } : {}),
  })
}

/** The AuthnRequest (HTTP-Redirect binding) with the given id, as the address to send the browser to. */
export async function authnRequestUrl(settings: StoredSamlSettings, sp: ServiceProvider, requestId: string) {
  return samlOf(settings, sp, requestId).getAuthorizeUrlAsync('', undefined, {})
}

/** This portal's SP metadata for one connection, for the identity provider's administrator. */
export function serviceProviderMetadata(sp: ServiceProvider): string {
  return generateServiceProviderMetadata({
    issuer: sp.entityId,
    callbackUrl: sp.acsUrl,
    // node-saml declares it with the HTTP-POST binding: the LogoutResponse comes back as a form.
    logoutCallbackUrl: sp.sloUrl,
    wantAssertionsSigned: true,
    identifierFormat: null,
  })
}

/** What a valid assertion says, and the facts the service checks against its own records. */
export interface CheckedAssertion {
  attributes: Record<string, unknown>
  assertionId: string
  issuer: string
  /** InResponseTo of the signed assertion's subject confirmation (null: unsolicited). */
  inResponseTo: string | null
  /** Keep the id until then: the assertion is refused as expired afterwards anyway. */
  expiresAt: Date
  /** Who the provider signed in, for a LogoutRequest (null without a NameID). */
  subject: SamlSubject | null
}

/**
 * The InResponseTo of a response that failed its checks, unverified: only to find an admin's
 * test flow and show the refusal there (a flow id decides nothing else). Null when unreadable.
 */
export function unverifiedInResponseTo(samlResponse: string): string | null {
  if (samlResponse.length > SAML_RESPONSE_MAX_CHARS) return null
  const xml = Buffer.from(samlResponse, 'base64').toString('utf8')
  if (hasDoctype(xml)) return null
  try {
    const root = samlParser().parse(xml) as {
      Response?: Record<string, unknown>
    }
    const value = root.Response?.['@InResponseTo']
    return typeof value === 'string' && value.length <= 100 ? value : null
  } catch {
    return null
  }
}

/** A refused response: the reason names the failed check, never the assertion's contents. */
export class SamlRefusal extends Error {}

/**
 * A posted SAML message's XML, before any signature is checked: within SAML_RESPONSE_MAX_CHARS,
 * XML at all, and without a DOCTYPE (no entity expansion reaches the parser).
 */
export function postedXml(samlResponse: string): string {
  if (samlResponse.length > SAML_RESPONSE_MAX_CHARS) throw new SamlRefusal('response too large')
  const xml = Buffer.from(samlResponse, 'base64').toString('utf8')
  if (!xml.trimStart().startsWith('<')) throw new SamlRefusal('response is not XML')
  if (hasDoctype(xml)) throw new SamlRefusal('DOCTYPE or entity declaration in the response')
  return xml
}

type XmlJs = { $?: Record<string, string>; _?: string; [key: string]: unknown }
const first = (value: unknown): XmlJs | undefined => (Array.isArray(value) ? (value[0] as XmlJs) : undefined)

/**
 * Validates a POSTed SAMLResponse: no DOCTYPE, the signature of the one assertion by one of the
 * IdP's certificates (node-saml refuses a second assertion, so a wrapped copy cannot ride along),
 * audience and time window; then, on the signed assertion only: the issuer is the IdP, the
 * recipient is this ACS, the response's destination (when given) too, and InResponseTo agrees.
 */
export async function checkResponse(
  samlResponse: string,
  settings: StoredSamlSettings,
  sp: ServiceProvider,
): Promise<CheckedAssertion> {
  const xml = postedXml(samlResponse)

  let profile: Awaited<ReturnType<SAML['validatePostResponseAsync']>>['profile']
  try {
    ;({ profile } = await samlOf(settings, sp).validatePostResponseAsync({ SAMLResponse: samlResponse }))
  } catch (error) {
    // node-saml's messages name the check ("Invalid signature", "SAML assertion expired: ...",
    // "SAML assertion audience mismatch"); the values they quote (the audience received, the
    // IdP's status message) are assertion contents and are cut off.
    const message = error instanceof Error ? error.message.split('\n')[0]! : 'unexpected error'
    throw new SamlRefusal(
      message
        .replace(/\.?\s*Expected:.*$/, '')
        .replace(/ error: .*$/, ' error')
        .slice(0, 120),
    )
  }
  if (!profile) throw new SamlRefusal('no assertion in the response')

  const assertion = (profile.getAssertion?.() as { Assertion?: XmlJs } | undefined)?.Assertion
  const assertionId = assertion?.$?.ID
  if (!assertion || !assertionId) throw new SamlRefusal('assertion without an ID')
  const issuer = first(assertion.Issuer)?._?.trim() ?? ''
  if (issuer !== settings.entityId) throw new SamlRefusal('assertion issuer is not the identity provider')

  // A bearer confirmation for this ACS, in its time window (node-saml checks the Conditions'
  // window, not the confirmation's, when it does not track request ids itself).
  const confirmations = (first(assertion.Subject)?.SubjectConfirmation as XmlJs[] | undefined) ?? []
  const data = confirmations.map((c) => first(c.SubjectConfirmationData)?.$ ?? {})
  const forUs = data.filter((d) => d.Recipient === sp.acsUrl)
  if (forUs.length === 0) throw new SamlRefusal(data.length === 0 ? 'no subject confirmation' : 'wrong recipient')
  const now = Date.now()
  const inTime = forUs.filter((d) => {
    const notOnOrAfter = Date.parse(d.NotOnOrAfter ?? '')
    const notBefore = d.NotBefore ? Date.parse(d.NotBefore) : -Infinity
    return now - SAML_CLOCK_SKEW_MS < notOnOrAfter && now + SAML_CLOCK_SKEW_MS >= notBefore
  })
  if (inTime.length === 0) throw new SamlRefusal('subject confirmation expired or not yet valid')
  const inResponseTo = inTime.find((d) => d.InResponseTo)?.InResponseTo ?? null

  // The response around the assertion is not signed, so it only may agree, never decide.
  const root = samlParser().parse(xml) as { Response?: Record<string, unknown> }
  const destination = root.Response?.['@Destination']
  if (destination !== undefined && destination !== sp.acsUrl) throw new SamlRefusal('wrong destination')
  const outerInResponseTo = root.Response?.['@InResponseTo']
  if (outerInResponseTo !== undefined && outerInResponseTo !== inResponseTo) {
    throw new SamlRefusal('InResponseTo of the response and of the assertion differ')
  }

  const conditions = first(assertion.Conditions)?.$ ?? {}
  const times = [conditions.NotOnOrAfter, ...data.map((d) => d.NotOnOrAfter)]
    .filter((t): t is string => Boolean(t))
    .map((t) => Date.parse(t))
    .filter((t) => Number.isFinite(t))
  // Without an end the assertion would be good for ever: keep its id a day past now.
  const end = times.length > 0 ? Math.max(...times) : Date.now() + 24 * 3_600_000

  const attributes: Record<string, unknown> = { ...(profile.attributes as Record<string, unknown> | undefined) }
  if (profile.email) attributes.email ??= profile.email
  attributes.nameID = profile.nameID
  return {
    attributes,
    assertionId,
    issuer,
    inResponseTo,
    expiresAt: new Date(end + SAML_CLOCK_SKEW_MS),
    subject: profile.nameID
      ? {
          nameID: profile.nameID,
          nameIDFormat: profile.nameIDFormat || null,
          sessionIndex: typeof profile.sessionIndex === 'string' ? profile.sessionIndex : null,
        }
      : null,
  }
}
