import type {
  CompanyDelivery,
  CompanyLicenceCount,
  DispatchDelivery,
  DispatchLti,
  LicenceCount,
  LtiSecret,
  UpdateCompanyDeliveryBody,
  UpdateDispatchDeliveryBody,
} from '@portal/shared'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'

const enc = encodeURIComponent

/** Delivery queries start with 'delivery'; a company change refreshes its dispatches' settings too. */
export const deliveryKeys = {
  all: ['delivery'] as const,
  company: (id: string) => ['delivery', 'company', id] as const,
  dispatch: (id: string) => ['delivery', 'dispatch', id] as const,
  lti: (id: string) => ['delivery', 'lti', id] as const,
}

export function useCompanyDelivery(companyId: string) {
  return useQuery({
    queryKey: deliveryKeys.company(companyId),
    queryFn: () => api.get<CompanyDelivery>(`/api/companies/${enc(companyId)}/delivery`),
  })
}

export function useUpdateCompanyDelivery(companyId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: UpdateCompanyDeliveryBody) =>
      api.put<CompanyDelivery>(`/api/companies/${enc(companyId)}/delivery`, body),
    onSuccess: (delivery) => {
      queryClient.setQueryData(deliveryKeys.company(companyId), delivery)
      void queryClient.invalidateQueries({ queryKey: deliveryKeys.all })
      // Instancing is also a column of the dispatch lists and details.
      void queryClient.invalidateQueries({ queryKey: ['dispatches'] })
    },
  })
}

export function useDispatchDelivery(dispatchId: string) {
  return useQuery({
    queryKey: deliveryKeys.dispatch(dispatchId),
    queryFn: () => api.get<DispatchDelivery>(`/api/dispatches/${enc(dispatchId)}/delivery`),
  })
}

export function useUpdateDispatchDelivery(dispatchId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: UpdateDispatchDeliveryBody) =>
      api.put<DispatchDelivery>(`/api/dispatches/${enc(dispatchId)}/delivery`, body),
    onSuccess: (delivery) => {
      queryClient.setQueryData(deliveryKeys.dispatch(dispatchId), delivery)
      void queryClient.invalidateQueries({ queryKey: deliveryKeys.all })
    },
  })
}

export function useDispatchLti(dispatchId: string) {
  return useQuery({
    queryKey: deliveryKeys.lti(dispatchId),
    queryFn: () => api.get<DispatchLti>(`/api/dispatches/${enc(dispatchId)}/lti`),
    // A provider failure is shown with its message; retrying at once rarely helps.
    retry: false,
  })
}

/** The shared secret, fetched only when asked for (the server logs each reveal). */
export function revealLtiSecret(dispatchId: string): Promise<LtiSecret> {
  return api.post<LtiSecret>(`/api/dispatches/${enc(dispatchId)}/lti/secret`)
}

export function useLicenceCount(dispatchId: string) {
  return useQuery({
    queryKey: ['delivery', 'licence-count', dispatchId] as const,
    queryFn: () => api.get<LicenceCount>(`/api/dispatches/${enc(dispatchId)}/licence-count`),
  })
}

export function useCompanyLicenceCount(companyId: string) {
  return useQuery({
    queryKey: ['delivery', 'company-licence-count', companyId] as const,
    queryFn: () => api.get<CompanyLicenceCount>(`/api/companies/${enc(companyId)}/licence-count`),
    enabled: companyId !== '',
  })
}
