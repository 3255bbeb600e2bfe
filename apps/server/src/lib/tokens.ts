import { createHash, randomBytes } from 'node:crypto'
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose'

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60
const ALG = 'HS256'
const ISSUER = 'dispatch-portal'

export interface AccessClaims {
  sub: string
  sid: string
  ver: number
}

export interface RefreshClaims {
  sub: string
  sid: string
  jti: string
}

/** Signs and checks tokens with one key; only HS256 is accepted, so alg none or swaps fail. */
export function createTokenSigner(secret: string) {
  const key = new TextEncoder().encode(secret)

  async function sign(payload: Record<string, unknown>, typ: string, expiresAt: number) {
    return new SignJWT({ ...payload, typ })
      .setProtectedHeader({ alg: ALG, typ: 'JWT' })
      .setIssuer(ISSUER)
      .setIssuedAt()
      .setExpirationTime(expiresAt)
      .sign(key)
  }

  async function verify(token: string, typ: string) {
    try {
      const { payload } = await jwtVerify(token, key, {
        algorithms: [ALG],
        issuer: ISSUER,
        // Every token this server signs expires; one without `exp` was not made here.
        requiredClaims: ['exp'],
      })
      return payload.typ === typ ? payload : null
    } catch (error) {
      if (error instanceof joseErrors.JOSEError) return null
      throw error
    }
  }

  return {
    async signAccess(claims: AccessClaims, now = Date.now()) {
      const exp = Math.floor(now / 1000) + ACCESS_TOKEN_TTL_SECONDS
      return sign({ sid: claims.sid, ver: claims.ver, sub: claims.sub }, 'access', exp)
    },
    /** The refresh token is random (its jti) and signed so its payload can carry `exp` (docs/product-rules.md §3). */
    async signRefresh(claims: Omit<RefreshClaims, 'jti'>, expiresAt: Date) {
      const jti = randomBytes(32).toString('base64url')
      return sign({ ...claims, jti }, 'refresh', Math.floor(expiresAt.getTime() / 1000))
    },
    async verifyAccess(token: string): Promise<AccessClaims | null> {
      const p = await verify(token, 'access')
      if (!p || typeof p.sub !== 'string' || typeof p.sid !== 'string' || typeof p.ver !== 'number') {
        return null
      }
      return { sub: p.sub, sid: p.sid, ver: p.ver }
    },
    async verifyRefresh(token: string): Promise<RefreshClaims | null> {
      const p = await verify(token, 'refresh')
      if (!p || typeof p.sub !== 'string' || typeof p.sid !== 'string' || typeof p.jti !== 'string') {
        return null
      }
      return { sub: p.sub, sid: p.sid, jti: p.jti }
    },
  }
}
export type TokenSigner = ReturnType<typeof createTokenSigner>

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex')
