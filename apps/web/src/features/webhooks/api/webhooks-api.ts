import type {
  WebhookCatcher,
  WebhookCreate,
  WebhookDeliveryList,
  WebhookList,
  WebhookSecret,
  WebhookSubscription,
  WebhookUpdate,
} from '@portal/shared'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'

const BASE = '/api/integrations/webhooks'
const at = (id: string) => `${BASE}/${encodeURIComponent(id)}`

export const webhookKeys = {
  list: ['webhooks'] as const,
  deliveries: (id: string) => ['webhooks', id, 'deliveries'] as const,
  catcher: ['webhooks', 'catcher'] as const,
}

/** The caller's subscriptions (an admin: every one), whether it may make them, and the event names. */
export function useWebhooks() {
  return useQuery({ queryKey: webhookKeys.list, queryFn: () => api.get<WebhookList>(BASE) })
}

function useHookMutation<A, R>(fn: (arg: A) => Promise<R>) {
  const client = useQueryClient()
  return useMutation({ mutationFn: fn, onSuccess: () => client.invalidateQueries({ queryKey: webhookKeys.list }) })
}

export const useCreateWebhook = () => useHookMutation((body: WebhookCreate) => api.post<WebhookSecret>(BASE, body))
export const useUpdateWebhook = () =>
  useHookMutation(({ id, body }: { id: string; body: WebhookUpdate }) => api.patch<WebhookSubscription>(at(id), body))
export const useDeleteWebhook = () => useHookMutation((id: string) => api.delete<WebhookSubscription>(at(id)))
export const useRevealSecret = () =>
  useMutation({ mutationFn: (id: string) => api.post<WebhookSecret>(`${at(id)}/secret`) })

/** The newest deliveries of one subscription; refreshed every few seconds while shown. */
export function useDeliveries(id: string) {
  return useQuery({
    queryKey: webhookKeys.deliveries(id),
    queryFn: () => api.get<WebhookDeliveryList>(`${at(id)}/deliveries`),
    refetchInterval: 3_000,
  })
}

export function useSendTest(id: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: () => api.post<{ deliveryId: number }>(`${at(id)}/test`),
    onSuccess: () => client.invalidateQueries({ queryKey: webhookKeys.deliveries(id) }),
  })
}

export function useResend(id: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (deliveryId: number) => api.post<{ deliveryId: number }>(`${at(id)}/deliveries/${deliveryId}/resend`),
    onSuccess: () => client.invalidateQueries({ queryKey: webhookKeys.deliveries(id) }),
  })
}

/** Demo mode's built-in receiver (404 outside demo mode: then nothing is shown). */
export function useCatcher() {
  return useQuery({
    queryKey: webhookKeys.catcher,
    queryFn: () => api.get<WebhookCatcher>('/api/demo/webhook-catcher'),
    refetchInterval: 5_000,
    retry: false,
  })
}
