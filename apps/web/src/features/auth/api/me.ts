import type { User } from '@/types/api'
import { api } from '@/lib/api-client'

/** GET /api/auth/me: the signed-in user, loaded at start when an access token is stored. */
export function getMe(): Promise<User> {
  return api.get<User>('/api/auth/me')
}
