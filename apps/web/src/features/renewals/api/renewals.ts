import type { BulkActionBody, BulkRun, RenewalList, ScheduleRenewalBody } from '@portal/shared'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'

export const renewalKeys = {
  all: ['renewals'] as const,
  company: (companyId: string) => ['renewals', 'company', companyId] as const,
  bulk: (id: string) => ['renewals', 'bulk', id] as const,
}

/** GET /api/dispatches/renewals?companyId=: upcoming renewals first, then the last month's. */
export function useCompanyRenewals(companyId: string) {
  return useQuery({
    queryKey: renewalKeys.company(companyId),
    queryFn: () => api.get<RenewalList>(`/api/dispatches/renewals?companyId=${encodeURIComponent(companyId)}`),
  })
}

export function useScheduleRenewal() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: ScheduleRenewalBody) =>
      api.post<{ scheduled: number; ids: string[] }>('/api/dispatches/renewals', body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: renewalKeys.all }),
  })
}

export function useCancelRenewal() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => api.delete(`/api/dispatches/renewals/${encodeURIComponent(id)}`),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: renewalKeys.all }),
  })
}

export function useStartBulk() {
  return useMutation({
    mutationFn: (body: BulkActionBody) => api.post<{ id: string; total: number }>('/api/dispatches/bulk', body),
  })
}

/** A bulk run's progress, asked for every second until it has finished. */
export function useBulkRun(id: string) {
  return useQuery({
    queryKey: renewalKeys.bulk(id),
    queryFn: () => api.get<BulkRun>(`/api/dispatches/bulk/${encodeURIComponent(id)}`),
    refetchInterval: (query) => (query.state.data?.status === 'finished' ? false : 1_000),
  })
}
