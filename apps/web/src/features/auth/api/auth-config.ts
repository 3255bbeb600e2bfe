import type { AuthConfig } from '@portal/shared'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'

export function getAuthConfig(): Promise<AuthConfig> {
  return api.get<AuthConfig>('/api/auth/config', { public: true })
}

export const authConfigQueryOptions = () =>
  queryOptions({
    queryKey: ['auth', 'config'],
    queryFn: getAuthConfig,
    staleTime: Infinity, // set by the server's configuration; it does not change while the tab is open
  })

/** Demo accounts for the login screen and the support address for the Need help? link. */
export function useAuthConfig() {
  return useQuery(authConfigQueryOptions())
}
