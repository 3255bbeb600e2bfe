import type { UserStatus } from '@portal/shared'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { useRefreshingMutation } from '@/lib/refreshing-mutation'
import type { User } from '@/types/api'
import type { UserList } from './get-users'
import { userKeys } from './query-keys'

export function setUserStatus(id: string, status: UserStatus): Promise<User> {
  return api.put<User>(`/api/users/${encodeURIComponent(id)}/status`, { status })
}

export function deleteUser(id: string): Promise<{ message: string }> {
  return api.delete<{ message: string }>(`/api/users/${encodeURIComponent(id)}`)
}

const patchStatus = (list: UserList | undefined, id: string, status: UserStatus) =>
  list && { ...list, users: list.users.map((u) => (u.id === id ? { ...u, status } : u)) }

/**
 * docs/product-rules.md §4: Suspend / Activate is applied to the list at once and rolled back if the server
 * refuses. Only the toggled user's status is put back, so an overlapping toggle of another
 * user keeps its own state.
 */
export function useSetUserStatus() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: UserStatus; previous: UserStatus }) => setUserStatus(id, status),
    onMutate: async ({ id, status }) => {
      await queryClient.cancelQueries({ queryKey: userKeys.list() })
      queryClient.setQueryData<UserList>(userKeys.list(), (old) => patchStatus(old, id, status))
      queryClient.setQueryData<User>(userKeys.detail(id), (old) => old && { ...old, status })
    },
    onError: (_error, { id, previous }) => {
      queryClient.setQueryData<UserList>(userKeys.list(), (old) => patchStatus(old, id, previous))
      queryClient.setQueryData<User>(userKeys.detail(id), (old) => old && { ...old, status: previous })
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  })
}

export function useDeleteUser() {
  return useRefreshingMutation((id: string) => deleteUser(id), userKeys.all)
}
