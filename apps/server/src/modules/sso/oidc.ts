import * as client from 'openid-client'

/** What a connection needs to talk to its provider. */
export interface OidcClientSettings {
  issuer: string
  clientId: string
  clientSecret: string | null
}

/** Discovery and every provider call give up after this many seconds. */
const PROVIDER_TIMEOUT_SECONDS = 10

/**
 * The provider's published configuration (OpenID Connect discovery) as openid-client's
 * Configuration. ID tokens are checked against the provider's keys (JWKS) on top of iss, aud,
 * exp and nonce: openid-client skips the signature for a token that came straight from the
 * token endpoint unless non-repudiation checks are on. Plain http is allowed only for an
 * issuer on this machine (the demo provider and tests; the admin screen refuses the rest).
 */
export async function discover(settings: OidcClientSettings): Promise<client.Configuration> {
  const url = new URL(settings.issuer)
  const insecure = url.protocol === 'http:'
  const config = await client.discovery(
    url,
    settings.clientId,
    { id_token_signed_response_alg: 'RS256' },
    settings.clientSecret ? client.ClientSecretBasic(settings.clientSecret) : client.None(),
    { timeout: PROVIDER_TIMEOUT_SECONDS, ...(insecure ? { execute: [client.allowInsecureRequests] } : {}) },
  )
  config.timeout = PROVIDER_TIMEOUT_SECONDS
  client.enableNonRepudiationChecks(config)
  return config
}

export interface StartedFlow {
  state: string
  nonce: string
  codeVerifier: string
  url: URL
}

/** Authorization code flow with PKCE (S256), state and nonce. */
export async function authorizationUrl(
  config: client.Configuration,
  redirectUri: string,
  scope: string,
): Promise<StartedFlow> {
  const codeVerifier = client.randomPKCECodeVerifier()
  const state = client.randomState()
  const nonce = client.randomNonce()
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope,
    response_type: 'code',
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  })
  return { state, nonce, codeVerifier, url }
}

/**
 * Exchanges the code and returns the ID token's claims, once openid-client has checked the
 * response's state, the ID token's signature, iss, aud, exp, iat and nonce.
 */
export async function finishFlow(
  config: client.Configuration,
  callbackUrl: URL,
  checks: { state: string; nonce: string; codeVerifier: string },
): Promise<Record<string, unknown>> {
  const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
    pkceCodeVerifier: checks.codeVerifier,
    expectedState: checks.state,
    expectedNonce: checks.nonce,
    idTokenExpected: true,
  })
  return { ...tokens.claims() }
}

/** The provider's end-session address (RP-initiated logout), or null when it publishes none. */
export function endSessionUrl(config: client.Configuration, postLogoutRedirectUri: string): string | null {
  if (!config.serverMetadata().end_session_endpoint) return null
  return client
    .buildEndSessionUrl(config, {
      client_id: config.clientMetadata().client_id,
      post_logout_redirect_uri: postLogoutRedirectUri,
    })
    .toString()
}

/**
 * Why openid-client refused a response, in words safe for the activity log: its error code
 * and the claim or check it names, never a token or claim value.
 */
export function refusalOf(error: unknown): string {
  type Cause = { code?: unknown; error?: unknown; message?: unknown; claim?: unknown; cause?: Cause }
  const e = error as Cause | null
  if (typeof e?.error === 'string') return `provider error ${e.error.slice(0, 60)}`
  const code = typeof e?.code === 'string' ? e.code : 'unexpected response'
  // The claim a check is about: openid-client wraps oauth4webapi's error, whose cause names it,
  // as does its message ('unexpected JWT "aud" (audience) claim value').
  let claim: string | undefined
  for (let c = e; c && !claim; c = c.cause ?? null) {
    if (typeof c.claim === 'string') claim = c.claim
    else if (typeof c.message === 'string') claim = /"(\w+)"/.exec(c.message)?.[1]
  }
  return claim ? `${code} (${claim})` : code
}
