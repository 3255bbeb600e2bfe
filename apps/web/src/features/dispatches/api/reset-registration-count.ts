import type { Dispatch } from '@portal/shared'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { dispatchKeys } from './query-keys'

/** POST /api/dispatches/{id}/registration-count/reset (renewing licenses). */
export function resetRegistrationCount(id: string): Promise<Dispatch> {
  return api.post<Dispatch>(`/api/dispatches/${encodeURIComponent(id)}/registration-count/reset`)
}

export function useResetRegistrationCount(id: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => resetRegistrationCount(id),
    onSuccess: (dispatch) => {
      queryClient.setQueryData(dispatchKeys.detail(id), dispatch)
      void queryClient.invalidateQueries({ queryKey: dispatchKeys.all })
    },
  })
}
