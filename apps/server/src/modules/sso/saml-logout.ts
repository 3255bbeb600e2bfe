import { postedXml, SamlRefusal, samlOf, samlParser, type ServiceProvider, type StoredSamlSettings } from './saml'
import type { SamlSubject } from './sso.repository'

const SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success'

/**
 * The LogoutRequest (HTTP-Redirect binding) naming the signed-in subject, with the given id, as
 * the address to send the browser to; null when the identity provider offers no single logout.
 * node-saml builds it, and would sign it were the connection given a signing key.
 */
export async function logoutRequestUrl(
  settings: StoredSamlSettings,
  sp: ServiceProvider,
  subject: SamlSubject,
  requestId: string,
): Promise<string | null> {
  if (!settings.sloUrl) return null
  return samlOf(settings, sp, requestId).getLogoutUrlAsync(
    {
      issuer: sp.entityId,
      nameID: subject.nameID,
      nameIDFormat: subject.nameIDFormat ?? 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
      ...(subject.sessionIndex ? { sessionIndex: subject.sessionIndex } : {}),
    },
    '',
    {},
  )
}

/**
 * Validates a POSTed LogoutResponse: no DOCTYPE, the whole message signed by one of the IdP's
 * certificates (node-saml refuses an unsigned one, and an assertion is not a LogoutResponse),
 * then, on the signed message: issued by the IdP, for this SP's logout address, successful.
 * Gives the LogoutRequest id it answers, which the service matches against its own records.
 */
export async function checkLogoutResponse(
  samlResponse: string,
  settings: StoredSamlSettings,
  sp: ServiceProvider,
): Promise<string> {
  const xml = postedXml(samlResponse)
  let result: Awaited<ReturnType<ReturnType<typeof samlOf>['validatePostResponseAsync']>>
  try {
    result = await samlOf(settings, sp).validatePostResponseAsync({ SAMLResponse: samlResponse })
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0]! : 'unexpected error'
    throw new SamlRefusal(message.startsWith('Invalid signature') ? 'invalid signature' : message.slice(0, 120))
  }
  if (result.profile || !result.loggedOut) throw new SamlRefusal('not a LogoutResponse')

  const root = samlParser().parse(xml) as { LogoutResponse?: Record<string, unknown> }
  const response = root.LogoutResponse
  if (!response) throw new SamlRefusal('not a LogoutResponse')
  const issuer = response.Issuer
  const issuerText = typeof issuer === 'string' ? issuer : (issuer as { '#text'?: string } | undefined)?.['#text']
  if (issuerText?.trim() !== settings.entityId) throw new SamlRefusal('issuer is not the identity provider')
  const destination = response['@Destination']
  if (destination !== undefined && destination !== sp.sloUrl) throw new SamlRefusal('wrong destination')
  const status = (response.Status as { StatusCode?: { '@Value'?: string } } | undefined)?.StatusCode?.['@Value']
  if (status !== SUCCESS) throw new SamlRefusal('the identity provider did not end its session')
  const inResponseTo = response['@InResponseTo']
  if (typeof inResponseTo !== 'string' || !inResponseTo) throw new SamlRefusal('unknown InResponseTo')
  return inResponseTo
}
