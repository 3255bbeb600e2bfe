import type { Role } from '@portal/shared'
import { tokenStorage } from '@/lib/token-storage'
import type { SessionResponse, User } from '@/types/api'

const NAMES: Record<Role, string> = {
  admin: 'Ada Admin',
  internal: 'Ines Internal',
  sales: 'Sam Sales',
  client: 'Cleo Client',
}

export function makeUser(role: Role, overrides: Partial<User> = {}): User {
  return {
    id: `user-${role}`,
    email: `${role}@example.com`,
    username: role,
    name: NAMES[role],
    role,
    companyId: role === 'client' ? 'company-1' : null,
    destinationId: role === 'client' ? 'company-1' : null,
    destinationName: role === 'client' ? 'Acme Learning' : null,
    status: 'active',
    createdAt: '2026-01-05T09:00:00.000Z',
    lastLogin: null,
    ...overrides,
  }
}

const base64url = (value: unknown) =>
  btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')

/** An unsigned JWT whose payload carries `exp`; `label` keeps tokens apart in assertions. */
export function makeToken(label: string, expiresInSeconds = 15 * 60): string {
  const exp = Math.floor(Date.now() / 1000) + expiresInSeconds
  return `${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url({ sub: label, exp })}.signature`
}

export function makeSession(user: User, label = 'initial'): SessionResponse {
  return {
    accessToken: makeToken(`access-${label}`),
    refreshToken: makeToken(`refresh-${label}`, 7 * 24 * 3600),
    user,
  }
}

/** Puts a session in browser storage, as a returning signed-in user has it. */
export function storeSession(session: SessionResponse): SessionResponse {
  tokenStorage.setSession(session)
  return session
}
