import type { CreateDispatchBody, Dispatch } from '@portal/shared'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { dispatchKeys } from './query-keys'

/** POST /api/dispatches (issue #15): SCORM Cloud first, then the mirror; 409 names the existing one. */
export function createDispatch(body: CreateDispatchBody): Promise<Dispatch> {
  return api.post<Dispatch>('/api/dispatches', body)
}

export function useCreateDispatch() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: createDispatch,
    onSuccess: (dispatch) => {
      queryClient.setQueryData(dispatchKeys.detail(dispatch.id), dispatch)
      void queryClient.invalidateQueries({ queryKey: dispatchKeys.all })
    },
  })
}
