import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query'

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
