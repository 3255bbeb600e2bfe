import type { SaveStaffSsoBody, StaffRoleMapping, StaffSsoSettings, SsoTestResult } from '@portal/shared'
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
