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
