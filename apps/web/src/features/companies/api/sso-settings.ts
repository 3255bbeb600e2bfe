import type { SaveSsoConnectionBody, SsoFlowTestResult, SsoSettings, SsoTestResult, SsoTestStart } from '@portal/shared'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { useRefreshingMutation } from '@/lib/refreshing-mutation'
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
  return useRefreshingMutation(() => api.delete<unknown>(base(id)), key(id))
}

export function useTestSsoConnection(id: string) {
  return useMutation({ mutationFn: () => api.post<SsoTestResult>(`${base(id)}/test`) })
}

/** PUT …/sso/password-users: the company's users who keep their password under "single sign-on required". */
export function useSavePasswordUsers(id: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (userIds: string[]) => api.put<SsoSettings>(`${base(id)}/password-users`, { userIds }),
    onSuccess: (settings) => queryClient.setQueryData(key(id), settings),
  })
}

/** POST …/sso/test/start: the provider's address for the admin's own test sign-in (the flow cookie comes along). */
export function useStartSsoTest(id: string) {
  return useMutation({ mutationFn: () => api.post<SsoTestStart>(`${base(id)}/test/start`) })
}

/** GET …/sso/test/{flowId}: what the provider sent in the admin's test sign-in. */
export function useSsoTestResult(id: string, flowId: string | null) {
  return useQuery({
    queryKey: [...key(id), 'test', flowId] as const,
    queryFn: () => api.get<SsoFlowTestResult>(`${base(id)}/test/${encodeURIComponent(flowId ?? '')}`),
    enabled: Boolean(flowId),
    retry: false,
  })
}
