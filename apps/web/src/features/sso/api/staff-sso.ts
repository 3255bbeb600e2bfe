import type {
  SaveStaffSsoBody,
  SsoFlowTestResult,
  SsoTestResult,
  SsoTestStart,
  StaffRoleMapping,
  StaffSsoSettings,
} from '@portal/shared'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'

const base = '/api/admin/sso/staff'
const key = ['admin', 'sso', 'staff'] as const

/** GET /api/admin/sso/staff: the vendor's staff connection (its secret never), domains, role mapping. */
export function useStaffSso() {
  return useQuery({ queryKey: key, queryFn: () => api.get<StaffSsoSettings>(base) })
}

function useSaving<T>(send: (value: T) => Promise<StaffSsoSettings>) {
  const queryClient = useQueryClient()
  return useMutation({ mutationFn: send, onSuccess: (settings) => queryClient.setQueryData(key, settings) })
}

export const useSaveStaffSso = () => useSaving((body: SaveStaffSsoBody) => api.put<StaffSsoSettings>(base, body))
export const useSaveStaffDomains = () =>
  useSaving((domains: string[]) => api.put<StaffSsoSettings>(`${base}/domains`, { domains }))
export const useSaveStaffRoles = () =>
  useSaving((roles: StaffRoleMapping[]) => api.put<StaffSsoSettings>(`${base}/roles`, { roles }))

export function useTestStaffSso() {
  return useMutation({ mutationFn: () => api.post<SsoTestResult>(`${base}/test`) })
}

/** POST …/staff/test/start: the staff provider's address for the admin's own test sign-in. */
export function useStartStaffSsoTest() {
  return useMutation({ mutationFn: () => api.post<SsoTestStart>(`${base}/test/start`) })
}

/** GET …/staff/test/{flowId}: what the staff provider sent in the admin's test sign-in. */
export function useStaffSsoTestResult(flowId: string) {
  return useQuery({
    queryKey: [...key, 'test', flowId] as const,
    queryFn: () => api.get<SsoFlowTestResult>(`${base}/test/${encodeURIComponent(flowId)}`),
    retry: false,
  })
}
