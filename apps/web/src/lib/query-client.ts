import { QueryClient, type DefaultOptions } from '@tanstack/react-query'
import { isClientError } from './api-error'

/** docs/product-rules.md §7 / §9: GET results stay fresh for 2 minutes. */
export const STALE_TIME_MS = 2 * 60_000

export const queryConfig = {
  queries: {
    staleTime: STALE_TIME_MS,
    // A 4xx will not change on a retry; network and server failures may.
    retry: (failureCount, error) => !isClientError(error) && failureCount < 3,
  },
  mutations: { retry: false },
} satisfies DefaultOptions

export function createQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: queryConfig })
}

export const queryClient = createQueryClient()
