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
import { useQuery, type QueryKey } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { useSavingMutation } from '@/lib/saving-mutation'

const enc = encodeURIComponent

/** Delivery queries start with 'delivery'; a company change refreshes its dispatches' settings too. */
export const deliveryKeys = {
  all: ['delivery'] as const,
  company: (id: string) => ['delivery', 'company', id] as const,
  dispatch: (id: string) => ['delivery', 'dispatch', id] as const,
  lti: (id: string) => ['delivery', 'lti', id] as const,
}

/** Where a company's or a dispatch's delivery settings are, and which other queries a save of them changes. */
const SETTINGS: Record<
  'company' | 'dispatch',
  { path: (id: string) => string; key: (id: string) => QueryKey; alsoStale: QueryKey[] }
> = {
  // Instancing is also a column of the dispatch lists and details.
  company: {
    path: (id) => `/api/companies/${enc(id)}/delivery`,
    key: deliveryKeys.company,
    alsoStale: [['dispatches']],
  },
  dispatch: { path: (id) => `/api/dispatches/${enc(id)}/delivery`, key: deliveryKeys.dispatch, alsoStale: [] },
}

function useDeliverySettings<T>(of: keyof typeof SETTINGS, id: string) {
  const { path, key } = SETTINGS[of]
  return useQuery({ queryKey: key(id), queryFn: () => api.get<T>(path(id)) })
}

/** Saves delivery settings: the answer replaces the cached ones, and every delivery query is read again. */
function useSaveDeliverySettings<T, TBody>(of: keyof typeof SETTINGS, id: string) {
  const { path, key, alsoStale } = SETTINGS[of]
  return useSavingMutation((body: TBody) => api.put<T>(path(id), body), key(id), [deliveryKeys.all, ...alsoStale])
}

export const useCompanyDelivery = (companyId: string) => useDeliverySettings<CompanyDelivery>('company', companyId)

export const useUpdateCompanyDelivery = (companyId: string) =>
  useSaveDeliverySettings<CompanyDelivery, UpdateCompanyDeliveryBody>('company', companyId)

export const useDispatchDelivery = (dispatchId: string) => useDeliverySettings<DispatchDelivery>('dispatch', dispatchId)

export const useUpdateDispatchDelivery = (dispatchId: string) =>
  useSaveDeliverySettings<DispatchDelivery, UpdateDispatchDeliveryBody>('dispatch', dispatchId)

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
