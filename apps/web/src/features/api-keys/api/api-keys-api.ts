import type { ApiKey, ApiKeyCreate, ApiKeyList, ApiKeySecret } from '@portal/shared'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'

export const apiKeyKeys = {
  list: ['api-keys'] as const,
  company: (id: string) => ['api-keys', 'company', id] as const,
}

/** The caller's keys (an admin: every key), whether it may make keys, and the scopes it may grant. */
export function useApiKeys() {
  return useQuery({ queryKey: apiKeyKeys.list, queryFn: () => api.get<ApiKeyList>('/api/api-keys') })
}

function useKeyMutation<A, R>(fn: (arg: A) => Promise<R>) {
  const client = useQueryClient()
  return useMutation({ mutationFn: fn, onSuccess: () => client.invalidateQueries({ queryKey: apiKeyKeys.list }) })
}

export const useCreateApiKey = () =>
  useKeyMutation((body: ApiKeyCreate) => api.post<ApiKeySecret>('/api/api-keys', body))
export const useRotateApiKey = () =>
  useKeyMutation((id: string) => api.post<ApiKeySecret>(`/api/api-keys/${encodeURIComponent(id)}/rotate`))
export const useRevokeApiKey = () =>
  useKeyMutation((id: string) => api.delete<ApiKey>(`/api/api-keys/${encodeURIComponent(id)}`))

/** A company's setting (admin): whether its users may make keys. */
export function useCompanyApiKeys(companyId: string) {
  return useQuery({
    queryKey: apiKeyKeys.company(companyId),
    queryFn: () => api.get<{ allowed: boolean }>(`/api/admin/companies/${encodeURIComponent(companyId)}/api-keys`),
  })
}

export function useSetCompanyApiKeys(companyId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (allowed: boolean) =>
      api.put<{ allowed: boolean }>(`/api/admin/companies/${encodeURIComponent(companyId)}/api-keys`, { allowed }),
    onSuccess: (data) => client.setQueryData(apiKeyKeys.company(companyId), data),
  })
}
