import { api } from '@/lib/api-client'

/** POST /api/auth/revoke-token: the refresh token in the body is the credential. */
export async function revokeRefreshToken(refreshToken: string): Promise<void> {
  await api.post<unknown>('/api/auth/revoke-token', { refreshToken }, { public: true })
}
