/** Reads `exp` (seconds since the epoch) from a JWT payload. The signature is the server's business. */
export function tokenExpiresAt(token: string): number | null {
  const payload = token.split('.')[1]
  if (!payload) return null
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/')
    const padded = base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '=')
    const claims: unknown = JSON.parse(atob(padded))
    const exp = claims && typeof claims === 'object' && 'exp' in claims ? claims.exp : undefined
    return typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 : null
  } catch {
    return null // not a JWT: treated as "expiry unknown", the server still decides
  }
}

/** Milliseconds left before the token expires, or null when it carries no readable expiry. */
export function msUntilExpiry(token: string, now = Date.now()): number | null {
  const expiresAt = tokenExpiresAt(token)
  return expiresAt === null ? null : expiresAt - now
}
