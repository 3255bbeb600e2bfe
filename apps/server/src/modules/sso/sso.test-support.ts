import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { exportJWK, generateKeyPair, SignJWT } from 'jose'

/**
 * Walks a browser's way through oidc-provider's development pages: follows redirects, keeps
 * cookies, signs in as `login` and gives consent, until the provider sends the browser to the
 * portal's callback. Returns that callback address.
 */
export async function signInAtProvider(authorizationUrl: string, login: string, callbackPrefix: string) {
  const jar = new Map<string, string>()
  let next = authorizationUrl
  let method: 'GET' | 'POST' = 'GET'
  let body: string | undefined
  for (let step = 0; step < 20; step += 1) {
    if (next.startsWith(callbackPrefix)) return next
    const res = await fetch(next, {
      method,
      body,
      redirect: 'manual',
      headers: {
        cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
    })
    for (const cookie of res.headers.getSetCookie()) {
      const [pair] = cookie.split(';')
      const [key, ...value] = pair!.split('=')
      jar.set(key!.trim(), value.join('='))
    }
    if (res.status >= 300 && res.status < 400) {
      next = new URL(res.headers.get('location')!, next).toString()
      method = 'GET'
      body = undefined
      continue
    }
    const html = await res.text()
    const action = /action="([^"]+)"/.exec(html)?.[1]
    if (!action) throw new Error(`the provider answered ${res.status} without a form: ${html.slice(0, 300)}`)
    const prompt = html.includes('name="prompt" value="login"') ? 'login' : 'consent'
    next = new URL(action.replace(/&amp;/g, '&'), next).toString()
    method = 'POST'
    body = new URLSearchParams(prompt === 'login' ? { prompt, login, password: 'any' } : { prompt }).toString()
  }
  throw new Error('the provider never sent the browser back')
}

export interface CraftedToken {
  /** Claims merged over the right ones (iss, aud, nonce, exp, iat, sub, email, name). */
  claims?: Record<string, unknown>
  /** 'none' sends an unsigned token; another key signs with a key the JWKS does not publish. */
  alg?: 'RS256' | 'none'
  foreignKey?: boolean
}

/**
 * A tiny real OpenID provider over HTTP whose token endpoint answers with the ID token a test
 * crafts (wrong aud, iss or nonce, alg none, another key), to prove the portal refuses each.
 * The authorization step is skipped: a test reads state and nonce from the start redirect and
 * calls the portal's callback itself.
 */
export async function startCraftedProvider(clientId: string) {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true })
  const other = await generateKeyPair('RS256')
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' }
  let next: CraftedToken & { nonce: string; email: string } = { nonce: '', email: '' }
  const server = createServer((req, res) => {
    const send = (body: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body))
    if (req.url === '/.well-known/openid-configuration') {
      return send({
        issuer,
        authorization_endpoint: `${issuer}/auth`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
      })
    }
    if (req.url === '/jwks') return send({ keys: [jwk] })
    if (req.url === '/token' && req.method === 'POST') {
      req.resume()
      req.on('end', () => {
        void idToken().then((id_token) =>
          send({ access_token: 'opaque', token_type: 'Bearer', expires_in: 60, id_token }),
        )
      })
      return
    }
    res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  async function idToken(): Promise<string> {
    const now = Math.floor(Date.now() / 1000)
    const claims = {
      iss: issuer,
      aud: clientId,
      sub: next.email,
      email: next.email,
      name: 'Crafted User',
      nonce: next.nonce,
      iat: now,
      exp: now + 300,
      ...next.claims,
    }
    if (next.alg === 'none') {
      const part = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url')
      return `${part({ alg: 'none', typ: 'JWT' })}.${part(claims)}.`
    }
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .sign(next.foreignKey ? other.privateKey : privateKey)
  }

  return {
    issuer,
    /** The token the next code exchange gets. */
    prepare(token: CraftedToken & { nonce: string; email: string }) {
      next = token
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
