import type { CreateUser, UpdateUser } from '@portal/shared'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { User } from '@/types/api'
import type { UserList } from './get-users'
import { userKeys } from './query-keys'

export type SavedUser = User & { message: string }

export function createUser(body: CreateUser): Promise<SavedUser> {
  return api.post<SavedUser>('/api/users', body)
}

export function updateUser(id: string, body: UpdateUser): Promise<SavedUser> {
  return api.put<SavedUser>(`/api/users/${encodeURIComponent(id)}`, body)
}

type SaveInput = { id: null; body: CreateUser } | { id: string; body: UpdateUser }

/**
 * docs/product-rules.md §4: a created user is appended, an edited row merged with the response; then the
 * list reloads from the server.
 */
export function useSaveUser() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: SaveInput) => (input.id === null ? createUser(input.body) : updateUser(input.id, input.body)),
    onSuccess: (saved, input) => {
      const { message: _message, ...user } = saved
      queryClient.setQueryData<UserList>(userKeys.list(), (old) => {
        if (!old) return old
        const users =
          input.id === null ? [...old.users, user] : old.users.map((u) => (u.id === input.id ? { ...u, ...user } : u))
        return { ...old, users }
      })
      return queryClient.invalidateQueries({ queryKey: userKeys.all })
    },
  })
}
