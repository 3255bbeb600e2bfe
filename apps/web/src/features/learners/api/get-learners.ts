import type { LearnerListQuery, LearnerListResponse, LearnerRegistrationsResponse } from '@portal/shared'
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'

/** GET /api/learners (a client's own company; staff the one picked). */
export function getLearners(query: LearnerListQuery): Promise<LearnerListResponse> {
  return api.get<LearnerListResponse>('/api/learners', { params: query })
}

export const learnersQueryOptions = (query: LearnerListQuery, enabled: boolean) =>
  queryOptions({
    queryKey: ['learners', query] as const,
    queryFn: () => getLearners(query),
    placeholderData: keepPreviousData,
    enabled,
  })

export function useLearners(query: LearnerListQuery, enabled = true) {
  return useQuery(learnersQueryOptions(query, enabled))
}

/** The learner's registrations across the company's courses. */
export function getLearnerRegistrations(email: string, companyId: string | undefined) {
  return api.get<LearnerRegistrationsResponse>(`/api/learners/${encodeURIComponent(email)}/registrations`, {
    params: { companyId },
  })
}

export function useLearnerRegistrations(email: string, companyId: string | undefined) {
  return useQuery({
    queryKey: ['learners', 'registrations', companyId ?? '', email] as const,
    queryFn: () => getLearnerRegistrations(email, companyId),
  })
}
