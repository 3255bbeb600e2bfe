import type { LogEntry } from '@portal/shared'
import { useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { User } from '@/types/api'
import { userKeys } from './query-keys'

export function getUser(id: string): Promise<User> {
  return api.get<User>(`/api/users/${encodeURIComponent(id)}`)
}

export function useUserDetail(id: string) {
  return useQuery({ queryKey: userKeys.detail(id), queryFn: () => getUser(id) })
}

/** GET /api/users/{id}/activity: the user's 20 latest activity rows. */
export function getUserActivity(id: string): Promise<LogEntry[]> {
  return api.get<LogEntry[]>(`/api/users/${encodeURIComponent(id)}/activity`)
}

export function useUserActivity(id: string) {
  return useQuery({ queryKey: userKeys.activity(id), queryFn: () => getUserActivity(id) })
}
