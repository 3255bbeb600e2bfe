import type { SaveSsoConnectionBody, SsoSettings, SsoTestResult } from '@portal/shared'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { companyKeys } from './query-keys'

const base = (id: string) => `/api/admin/companies/${encodeURIComponent(id)}/sso`
const key = (id: string) => [...companyKeys.detail(id), 'sso'] as const

/** GET /api/admin/companies/{id}/sso: the connection (its secret never), domains, the callback address. */
export function useSsoSettings(id: string) {
  return useQuery({ queryKey: key(id), queryFn: () => api.get<SsoSettings>(base(id)) })
}

export function useSaveSsoConnection(id: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: SaveSsoConnectionBody) => api.put<SsoSettings>(base(id), body),
    onSuccess: (settings) => queryClient.setQueryData(key(id), settings),
  })
}

export function useSaveSsoDomains(id: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (domains: string[]) => api.put<SsoSettings>(`${base(id)}/domains`, { domains }),
    onSuccess: (settings) => queryClient.setQueryData(key(id), settings),
  })
}

export function useRemoveSsoConnection(id: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => api.delete<unknown>(base(id)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key(id) }),
  })
}

export function useTestSsoConnection(id: string) {
  return useMutation({ mutationFn: () => api.post<SsoTestResult>(`${base(id)}/test`) })
}
