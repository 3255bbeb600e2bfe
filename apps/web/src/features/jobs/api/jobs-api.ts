import type { JobActionResult, JobsOverview } from '@portal/shared'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'

export const jobKeys = { overview: ['jobs', 'overview'] as const }

/** The queues, their counts and the last failures; refreshed every 10 s while the screen is open. */
export function useJobsOverview() {
  return useQuery({
    queryKey: jobKeys.overview,
    queryFn: () => api.get<JobsOverview>('/api/admin/jobs'),
    refetchInterval: 10_000,
  })
}

/** Retry a failed job, or cancel a waiting one; the counts are read again after either. */
export function useJobAction() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: 'retry' | 'cancel' }) =>
      api.post<JobActionResult>(`/api/admin/jobs/${encodeURIComponent(id)}/${action}`),
    onSettled: () => client.invalidateQueries({ queryKey: jobKeys.overview }),
  })
}
