import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { exportJWK, generateKeyPair } from 'jose'

export interface ProviderAccount {
  email: string
  name: string
  /** Sent as the `groups` claim (scope `groups`); read when the token is made, so a test may change it. */
  groups?: string[]
}

export interface ProviderClient {
  clientId: string
  clientSecret: string
  redirectUris: string[]
  postLogoutRedirectUris?: string[]
}

export interface RunningProvider {
  issuer: string
  close(): Promise<void>
}

/**
 * A real OpenID Connect provider (oidc-provider) on loopback: demo mode's built-in provider and
 * the tests' provider. Its sign-in and consent pages are oidc-provider's development pages, which
 * take any password: only the listed accounts exist, and the portal decides who gets in. Keys
 * are made at each start (RS256). The package loads here only, through a dynamic import, so a
 * server with a real provider never loads it. Port 0 takes any free port.
 */
export async function startOidcProvider(options: {
  port: number
  host?: string
  clients: ProviderClient[]
  accounts: ProviderAccount[]
}): Promise<RunningProvider> {
  const host = options.host ?? '127.0.0.1'
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | null = null
  const server = createServer((req, res) => {
    if (handler) handler(req, res)
    else res.writeHead(503).end()
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, host, () => resolve())
  })
  const { port } = server.address() as AddressInfo
  const issuer = `http://${host}:${port}`

  const { default: Provider } = await import('oidc-provider')
  const { privateKey } = await generateKeyPair('RS256', { extractable: true })
  const accounts = new Map(options.accounts.map((a) => [a.email.toLowerCase(), a]))
  const provider = new Provider(issuer, {
    clients: options.clients.map((c) => ({
      client_id: c.clientId,
      client_secret: c.clientSecret,
      redirect_uris: c.redirectUris,
      post_logout_redirect_uris: c.postLogoutRedirectUris ?? [],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    })),
    jwks: { keys: [{ ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: 'demo-1' }] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'], groups: ['groups'] },
    // The portal reads e-mail and name from the ID token.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
    async findAccount(_ctx, id) {
      const account = accounts.get(id.trim().toLowerCase())
      if (!account) return undefined
      return {
        accountId: account.email,
        claims: async () => ({
          sub: account.email,
          email: account.email,
          email_verified: true,
          name: account.name,
          ...(account.groups ? { groups: account.groups } : {}),
        }),
      }
    },
  })
  // A development provider on loopback: its own warnings are not the portal's.
  provider.on('server_error', () => undefined)
  handler = provider.callback()
  return {
    issuer,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
