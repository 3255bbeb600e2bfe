import { randomBytes } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { inflateRawSync } from 'node:zlib'
import { SAML } from '@node-saml/node-saml'
import { SignedXml } from 'xml-crypto'
import { IDP_CERT, IDP_KEY, OTHER_CERT, OTHER_KEY } from './saml.test-keys'

const certBody = (pem: string) => pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '')
const iso = (ms: number) => new Date(ms).toISOString()
const newId = () => `_${randomBytes(16).toString('hex')}`

/** What the next response says; each field differs from a good response in one thing only. */
export interface ResponseOptions {
  email: string
  name?: string
  /** The AuthnRequest answered; null sends an unsolicited (IdP-initiated) response. */
  inResponseTo: string | null
  acsUrl: string
  audience: string
  recipient?: string
  destination?: string
  issuer?: string
  assertionId?: string
  /** Offsets from now for the assertion's window, in ms. */
  notBefore?: number
  notOnOrAfter?: number
  /** 'none': unsigned; 'other': signed by a key the metadata does not publish. */
  signature?: 'idp' | 'none' | 'other'
  /** Signature wrapping: 'beside' adds an unsigned assertion next to the signed one; 'around' puts the signed one inside an unsigned one. */
  wrap?: 'beside' | 'around'
  /** Prepended to the XML (a DOCTYPE with an entity). */
  prolog?: string
  /** The AuthnStatement's SessionIndex (a fresh one when not given). */
  sessionIndex?: string
}

/** What the next LogoutResponse says; each field differs from a good one in one thing only. */
export interface LogoutResponseOptions {
  inResponseTo: string
  destination: string
  issuer?: string
  /** 'none': unsigned; 'other': signed by a key the metadata does not publish. */
  signature?: 'idp' | 'none' | 'other'
  status?: string
}

/**
 * A SAML 2.0 identity provider for the tests: its metadata (at a real HTTP address, with its
 * certificate), an HTTP-Redirect sign-in endpoint that reads the portal's AuthnRequest and
 * answers with an auto-posting form holding a signed response (as a real IdP's page does), and
 * a maker of crafted responses for every refusal. Assertions are signed with xml-crypto.
 */
export async function startSamlIdp(options: { singleLogout?: boolean } = {}) {
  let user = { email: 'someone@example.test', name: 'Some One' }
  let audience = ''
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', entityId)
    if (url.pathname === '/metadata') {
      res.writeHead(200, { 'content-type': 'application/samlmetadata+xml' }).end(metadataXml)
      return
    }
    if (url.pathname === '/sso') {
      const request = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest') ?? '', 'base64')).toString()
      const id = /\sID="([^"]+)"/.exec(request)?.[1] ?? null
      const acsUrl = /AssertionConsumerServiceURL="([^"]+)"/.exec(request)?.[1] ?? ''
      const saml = makeResponse({ ...user, inResponseTo: id, acsUrl, audience })
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(`<form method="post" action="${acsUrl}"><input type="hidden" name="SAMLResponse" value="${saml}"/></form>`)
      return
    }
    res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const entityId = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  const metadataXml = `<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${entityId}">
  <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol" WantAuthnRequestsSigned="false">
    <md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${certBody(IDP_CERT)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
    <md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${entityId}/sso"/>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${entityId}/sso"/>${
      options.singleLogout
        ? `
    <md:SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${entityId}/slo"/>`
        : ''
    }
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`

  function assertionXml(o: ResponseOptions, id: string, email: string) {
    const now = Date.now()
    const notBefore = iso(now + (o.notBefore ?? -60_000))
    const notOnOrAfter = iso(now + (o.notOnOrAfter ?? 5 * 60_000))
    return (
      `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id}" Version="2.0" IssueInstant="${iso(now)}">` +
      `<saml:Issuer>${o.issuer ?? entityId}</saml:Issuer>` +
      `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${email}</saml:NameID>` +
      `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">` +
      `<saml:SubjectConfirmationData${o.inResponseTo ? ` InResponseTo="${o.inResponseTo}"` : ''} NotOnOrAfter="${notOnOrAfter}" Recipient="${o.recipient ?? o.acsUrl}"/>` +
      `</saml:SubjectConfirmation></saml:Subject>` +
      `<saml:Conditions NotBefore="${notBefore}" NotOnOrAfter="${notOnOrAfter}">` +
      `<saml:AudienceRestriction><saml:Audience>${o.audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
      `<saml:AuthnStatement AuthnInstant="${iso(now)}" SessionIndex="${o.sessionIndex ?? newId()}"><saml:AuthnContext>` +
      `<saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef>` +
      `</saml:AuthnContext></saml:AuthnStatement>` +
      `<saml:AttributeStatement>` +
      `<saml:Attribute Name="email"><saml:AttributeValue>${email}</saml:AttributeValue></saml:Attribute>` +
      `<saml:Attribute Name="name"><saml:AttributeValue>${o.name ?? 'Saml User'}</saml:AttributeValue></saml:Attribute>` +
      `</saml:AttributeStatement></saml:Assertion>`
    )
  }

  function sign(xml: string, key: string, cert: string, root = 'Assertion') {
    const signer = new SignedXml({
      privateKey: key,
      publicCert: cert,
      signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
      canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
    })
    signer.addReference({
      xpath: `/*[local-name(.)='${root}']`,
      digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
      transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
    })
    signer.computeSignature(xml, {
      location: { reference: `/*[local-name(.)='${root}']/*[local-name(.)='Issuer']`, action: 'after' },
    })
    return signer.getSignedXml()
  }

  /** A base64 SAMLResponse as the identity provider's form would post it. */
  function makeResponse(o: ResponseOptions): string {
    const id = o.assertionId ?? newId()
    const unsigned = assertionXml(o, id, o.email)
    const signature = o.signature ?? 'idp'
    let assertion =
      signature === 'none'
        ? unsigned
        : sign(
            unsigned,
            ...((signature === 'other' ? [OTHER_KEY, OTHER_CERT] : [IDP_KEY, IDP_CERT]) as [string, string]),
          )
    if (o.wrap) {
      // The attacker's assertion: another e-mail, unsigned, with the signed one's id.
      const evil = assertionXml(o, id, 'mallory@' + o.email.split('@')[1])
      assertion =
        o.wrap === 'beside'
          ? evil + assertion
          : evil.replace('</saml:Subject>', `</saml:Subject><saml:Advice>${assertion}</saml:Advice>`)
    }
    const xml =
      (o.prolog ?? '') +
      `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${newId()}" Version="2.0" IssueInstant="${iso(Date.now())}"` +
      ` Destination="${o.destination ?? o.acsUrl}"${o.inResponseTo ? ` InResponseTo="${o.inResponseTo}"` : ''}>` +
      `<saml:Issuer>${o.issuer ?? entityId}</saml:Issuer>` +
      `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
      assertion +
      `</samlp:Response>`
    return Buffer.from(xml).toString('base64')
  }

  /** A base64 LogoutResponse as the identity provider's form would post it to the SP's logout address. */
  function makeLogoutResponse(o: LogoutResponseOptions): string {
    const xml =
      `<samlp:LogoutResponse xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${newId()}" Version="2.0" IssueInstant="${iso(Date.now())}"` +
      ` Destination="${o.destination}" InResponseTo="${o.inResponseTo}">` +
      `<saml:Issuer>${o.issuer ?? entityId}</saml:Issuer>` +
      `<samlp:Status><samlp:StatusCode Value="${o.status ?? 'urn:oasis:names:tc:SAML:2.0:status:Success'}"/></samlp:Status>` +
      `</samlp:LogoutResponse>`
    const signature = o.signature ?? 'idp'
    const signed =
      signature === 'none'
        ? xml
        : signature === 'other'
          ? sign(xml, OTHER_KEY, OTHER_CERT, 'LogoutResponse')
          : sign(xml, IDP_KEY, IDP_CERT, 'LogoutResponse')
    return Buffer.from(signed).toString('base64')
  }

  /** Reads the SP's LogoutRequest (HTTP-Redirect binding) from the address it sent the browser to, with node-saml. */
  async function readLogoutRequest(address: string) {
    const url = new URL(address)
    const reader = new SAML({ idpCert: IDP_CERT, issuer: entityId, callbackUrl: `${entityId}/unused` })
    const { profile } = await reader.validateRedirectAsync(
      { SAMLRequest: url.searchParams.get('SAMLRequest') ?? '' },
      url.search.slice(1),
    )
    return profile!
  }

  return {
    entityId,
    makeLogoutResponse,
    readLogoutRequest,
    metadataXml,
    metadataUrl: `${entityId}/metadata`,
    /** Who the sign-in endpoint signs in next, and the audience (the portal's SP entity id) it names. */
    signInAs(next: { email: string; name: string }, spEntityId: string) {
      user = next
      audience = spEntityId
    },
    makeResponse,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
