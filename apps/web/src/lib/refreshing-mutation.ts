import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query'

/**
 * A mutation that marks the queries under `queryKey` stale once it succeeds, so the screens showing
 * them read them again; it stays pending until the shown ones have been fetched.
 */
export function useRefreshingMutation<TData, TVariables = void>(
  mutationFn: (variables: TVariables) => Promise<TData>,
  queryKey: QueryKey,
) {
  const queryClient = useQueryClient()
  return useMutation({ mutationFn, onSuccess: () => queryClient.invalidateQueries({ queryKey }) })
}

/**
 * A mutation whose answer is the saved item: it replaces the cached `detailKey` query at once, and the
 * queries under each of `staleKeys` (the lists and summaries that show it) are read again.
 */
export function useSavingMutation<TData, TVariables>(
  mutationFn: (variables: TVariables) => Promise<TData>,
  detailKey: QueryKey,
  staleKeys: QueryKey[],
) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn,
    onSuccess: (data) => {
      queryClient.setQueryData(detailKey, data)
      for (const queryKey of staleKeys) void queryClient.invalidateQueries({ queryKey })
    },
  })
}
