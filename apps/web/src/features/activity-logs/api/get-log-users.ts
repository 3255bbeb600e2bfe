import type { SalesUser } from '@portal/shared'
import { useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { logKeys } from './get-logs'

export type LogUserOption = SalesUser

const sortKey = (user: LogUserOption) => (user.name || user.email).toLowerCase()

/**
 * GET /api/auth/users for the user filter, sorted by name or email. docs/product-rules.md §8: a failure is only
 * written to the console; the filter then offers All Users alone.
 */
export async function getLogUsers(): Promise<LogUserOption[]> {
  try {
    const users = await api.get<LogUserOption[]>('/api/auth/users')
    return [...users].sort((a, b) => sortKey(a).localeCompare(sortKey(b)))
  } catch (error) {
    console.error('Could not load the users for the log filter', error)
    return []
  }
}

export function useLogUsers() {
  return useQuery({ queryKey: logKeys.users(), queryFn: getLogUsers })
}
