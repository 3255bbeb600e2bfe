import type { Statement } from '@portal/shared'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'

/** A month (yyyy-MM) or a whole year (yyyy). */
export type StatementPeriod = { month: string } | { year: string }

export function getStatement(companyId: string, period: StatementPeriod): Promise<Statement> {
  return api.get<Statement>(`/api/statements/${encodeURIComponent(companyId)}`, { params: period })
}

export function useStatement(companyId: string, period: StatementPeriod) {
  return useQuery({
    queryKey: ['statements', companyId, period],
    queryFn: () => getStatement(companyId, period),
    enabled: Boolean(companyId),
    placeholderData: keepPreviousData,
  })
}
