import type {
  AlertSettings,
  CompanyAlertSettings,
  DispatchAlertFlags,
  NotificationList,
  OutboxPage,
  OutboxStatus,
  Preferences,
} from '@portal/shared'
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { useRefreshingMutation } from '@/lib/refreshing-mutation'

/** Every alerts query key starts with 'alerts', so one invalidation refreshes the bell and badges. */
export const alertKeys = {
  all: ['alerts'] as const,
  notifications: ['alerts', 'notifications'] as const,
  flags: (ids: string[]) => ['alerts', 'flags', ids] as const,
  settings: ['alerts', 'settings'] as const,
  company: (id: string) => ['alerts', 'company', id] as const,
  outbox: (page: number, status: OutboxStatus | '') => ['alerts', 'outbox', page, status] as const,
  preferences: ['alerts', 'preferences'] as const,
}

/** The bell polls every minute while the tab is visible (new alerts come from background syncs). */
export function useNotifications() {
  return useQuery({
    queryKey: alertKeys.notifications,
    queryFn: () => api.get<NotificationList>('/api/notifications', { params: { limit: 20 } }),
    refetchInterval: 60_000,
    staleTime: 30_000,
  })
}

export function useMarkRead() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (id: number) => api.post<{ unreadCount: number }>(`/api/notifications/${id}/read`),
    onSuccess: () => client.invalidateQueries({ queryKey: alertKeys.notifications }),
  })
}

export function useMarkAllRead() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: () => api.post<{ unreadCount: number }>('/api/notifications/read-all'),
    onSuccess: () => client.invalidateQueries({ queryKey: alertKeys.notifications }),
  })
}

/** "Near cap" / "Expires soon" for the dispatches of one list page (one request per page). */
export function useDispatchAlertFlags(ids: string[]) {
  return useQuery({
    queryKey: alertKeys.flags(ids),
    queryFn: () =>
      api.get<DispatchAlertFlags>(
        `/api/notifications/dispatch-flags?${ids.map((id) => `ids=${encodeURIComponent(id)}`).join('&')}`,
      ),
    enabled: ids.length > 0,
    staleTime: 60_000,
  })
}

export function useGlobalAlertSettings() {
  return useQuery({ queryKey: alertKeys.settings, queryFn: () => api.get<AlertSettings>('/api/admin/alert-settings') })
}

export function useSaveGlobalAlertSettings() {
  return useRefreshingMutation(
    (body: AlertSettings) => api.put<AlertSettings>('/api/admin/alert-settings', body),
    alertKeys.all,
  )
}

const companyPath = (id: string) => `/api/admin/companies/${encodeURIComponent(id)}/alert-settings`

export function useCompanyAlertSettings(id: string) {
  return useQuery({ queryKey: alertKeys.company(id), queryFn: () => api.get<CompanyAlertSettings>(companyPath(id)) })
}

export function useSaveCompanyAlertSettings(id: string) {
  return useRefreshingMutation(
    (body: AlertSettings) => api.put<CompanyAlertSettings>(companyPath(id), body),
    alertKeys.all,
  )
}

/** "Use the global thresholds": removes the company's own. */
export function useRestoreGlobalThresholds(id: string) {
  return useRefreshingMutation(() => api.delete<CompanyAlertSettings>(companyPath(id)), alertKeys.all)
}

export function useOutbox(page: number, status: OutboxStatus | '') {
  return useQuery({
    queryKey: alertKeys.outbox(page, status),
    queryFn: () =>
      api.get<OutboxPage>('/api/admin/outbox', { params: { page, limit: 25, ...(status ? { status } : {}) } }),
    placeholderData: keepPreviousData,
  })
}

export function usePreferences() {
  return useQuery({ queryKey: alertKeys.preferences, queryFn: () => api.get<Preferences>('/api/profile/preferences') })
}

export function useSavePreferences() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: Preferences) => api.put<Preferences>('/api/profile/preferences', body),
    onSuccess: (saved) => client.setQueryData(alertKeys.preferences, saved),
  })
}
