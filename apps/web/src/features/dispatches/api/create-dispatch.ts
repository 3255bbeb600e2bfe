import { IDEMPOTENCY_KEY_HEADER, type CreateDispatchBody, type Dispatch } from '@portal/shared'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { dispatchKeys } from './query-keys'

/**
 * POST /api/dispatches: SCORM Cloud first, then the mirror; 409 names the existing one.
 * `key` is the submission's Idempotency-Key, sent again on a retry (lib/idempotency-key.ts).
 */
export function createDispatch(body: CreateDispatchBody, key?: string): Promise<Dispatch> {
  return api.post<Dispatch>('/api/dispatches', body, key ? { headers: { [IDEMPOTENCY_KEY_HEADER]: key } } : {})
}

export function useCreateDispatch() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ body, key }: { body: CreateDispatchBody; key?: string }) => createDispatch(body, key),
    onSuccess: (dispatch) => {
      queryClient.setQueryData(dispatchKeys.detail(dispatch.id), dispatch)
      void queryClient.invalidateQueries({ queryKey: dispatchKeys.all })
    },
  })
}
