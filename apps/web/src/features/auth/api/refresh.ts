import type { SessionResponse } from '@/types/api'
import { refreshSession } from '@/lib/api-client'

/**
 * POST /api/auth/refresh-token. The request itself lives in the API client, which must share
 * one in-flight refresh between this caller and every call retrying after a 401.
 */
export function refreshAccessToken(): Promise<SessionResponse> {
  return refreshSession()
}
