import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { storage } from '@/lib/storage'
import type { User } from '@/types/api'
import { userKeys } from './query-keys'

/** docs/product-rules.md §3: the product keeps the users in local browser storage. */
export const USERS_CACHE_KEY = 'portal.users'

export type UserList = {
  users: User[]
  /** Set when GET /api/users failed and `users` are the ones cached at the last success. */
  loadError: unknown
}

type Cached = { ownerId: string; users: User[] }

/** The cache belongs to the admin who loaded it: another account on this browser never reads it. */
function readCache(ownerId: string): User[] | null {
  const raw = storage.get(USERS_CACHE_KEY)
  if (!raw) return null
  try {
    const cached = JSON.parse(raw) as Cached
    return cached.ownerId === ownerId && Array.isArray(cached.users) ? cached.users : null
  } catch (error) {
    console.warn('Ignoring unreadable cached users', error)
    return null
  }
}

/**
 * GET /api/users. docs/product-rules.md §7: on failure the list falls back to the users cached at the last
 * successful load (written on each one); without a cache the error stands.
 */
export async function getUsers(ownerId: string): Promise<UserList> {
  try {
    const users = await api.get<User[]>('/api/users')
    storage.set(USERS_CACHE_KEY, JSON.stringify({ ownerId, users } satisfies Cached))
    return { users, loadError: null }
  } catch (error) {
    const cached = readCache(ownerId)
    if (!cached) throw error
    console.warn('Showing cached users: GET /api/users failed', error)
    return { users: cached, loadError: error }
  }
}

export const usersQueryOptions = (ownerId: string) =>
  queryOptions({ queryKey: userKeys.list(), queryFn: () => getUsers(ownerId) })

export function useUsers(ownerId: string) {
  return useQuery(usersQueryOptions(ownerId))
}
