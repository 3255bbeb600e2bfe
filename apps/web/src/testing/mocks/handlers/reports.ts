import type { ReportRegistration, ReportResponse } from '@portal/shared'
import { http, HttpResponse } from 'msw'
import { echoedPagination } from '../pagination'
import { makeDispatch } from './dispatches'
import { fixtureBuilder } from '../fixture'

export const makeRegistration = fixtureBuilder<ReportRegistration>(() => ({
  id: 'reg-1',
  learnerFirstName: 'Grace',
  learnerLastName: 'Hopper',
  learnerEmail: 'grace.hopper@acme.test',
  completionStatus: 'completed',
  successStatus: 'passed',
  score: 0.85,
  totalTimeTracked: 3723,
  lastAccessDate: '2026-03-05T14:30:00.000Z',
}))

export const registrationFixtures: ReportRegistration[] = [
  makeRegistration(),
  makeRegistration({
    id: 'reg-2',
    learnerFirstName: 'Alan',
    learnerLastName: 'Turing',
    learnerEmail: 'alan.turing@acme.test',
    completionStatus: 'incomplete',
    successStatus: 'failed',
    score: 0.4,
    totalTimeTracked: 125,
  }),
  makeRegistration({
    id: 'reg-3',
    learnerFirstName: 'Ada',
    learnerLastName: 'Lovelace',
    learnerEmail: 'ada@acme.test',
    completionStatus: 'not attempted',
    successStatus: 'unknown',
    score: null,
    totalTimeTracked: 0,
    lastAccessDate: null,
  }),
]

/** A report answer; page and pageSize echo the request. */
export function makeReport(
  request: Request,
  id: string,
  overrides: {
    registrations?: ReportRegistration[]
    totalItems?: number
    distinctLearners?: number
    totalCapped?: boolean
  } = {},
): ReportResponse {
  const registrations = overrides.registrations ?? registrationFixtures
  const totalItems = overrides.totalItems ?? registrations.length
  return {
    dispatch: makeDispatch({ id }),
    registrations,
    pagination: echoedPagination(request, 100, totalItems),
    distinctLearners: overrides.distinctLearners ?? totalItems,
    totalCapped: overrides.totalCapped ?? false,
  }
}

export const reportHandlers = [
  http.get<{ id: string }>('/api/reports/dispatch/:id', ({ request, params }) =>
    HttpResponse.json(makeReport(request, params.id)),
  ),
  http.get('/api/reports/registrations/count', () => HttpResponse.json({ databaseCount: 1234 })),
]
