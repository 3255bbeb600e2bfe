import type { Dispatch, UpdateDispatchBody } from '@portal/shared'
import { api } from '@/lib/api-client'
import { useSavingMutation } from '@/lib/saving-mutation'
import { dispatchKeys } from './query-keys'

/**
 * docs/product-decisions.md D10, D4 admin dispatch controls: the provider is written first; a refusal changes nothing.
 * A `message` comes with a 202: saved upstream, shown here after the next sync.
 */
export function updateDispatch(id: string, body: UpdateDispatchBody): Promise<Dispatch & { message?: string }> {
  return api.put<Dispatch & { message?: string }>(`/api/dispatches/${encodeURIComponent(id)}`, body)
}

export function useUpdateDispatch(id: string) {
  // Lists and summaries count enabled dispatches and caps: refresh them too.
  return useSavingMutation((body: UpdateDispatchBody) => updateDispatch(id, body), dispatchKeys.detail(id), [
    dispatchKeys.all,
  ])
}
