import type {
  Dispatch,
  DispatchHistoryEntry,
  DispatchHistoryResponse,
  DispatchListResponse,
  DispatchSummary,
  UpdateDispatchBody,
} from '@portal/shared'
import { http, HttpResponse } from 'msw'
import { echoedPagination } from '../pagination'
import { fixtureBuilder } from '../fixture'

export const makeDispatch = fixtureBuilder<Dispatch>(() => ({
  id: 'd-1',
  courseId: 'course-1',
  courseTitle: 'Workplace Safety Basics',
  destinationId: 'company-1',
  destinationName: 'Acme Learning',
  enabled: true,
  registrationCount: 42,
  registrationCap: 100,
  created: '2026-01-10T09:30:00.000Z',
  updated: '2026-02-14T16:45:00.000Z',
  expirationDate: '2026-12-31',
  appSource: '1',
  tags: ['safety', 'onboarding'],
  notes: 'Renewal due in December.',
}))

export const makeSummary = fixtureBuilder<DispatchSummary>(() => ({
  totalDispatches: 3,
  activeDispatches: 2,
  registrations: 1234,
  cappedRegistrations: 60,
  cappedCapacity: 100,
  usagePercent: 60,
  unlimitedActive: 1,
  activeRegistrations: 1234,
}))

export const dispatchFixtures: Dispatch[] = [
  makeDispatch(),
  makeDispatch({
    id: 'd-2',
    courseId: 'course-2',
    courseTitle: 'Data Protection Essentials',
    destinationId: 'company-2',
    destinationName: 'Globex Training',
    enabled: false,
    registrationCount: 7,
    registrationCap: 0,
  }),
  makeDispatch({
    id: 'd-3',
    courseId: 'course-3',
    courseTitle: 'Leadership Foundations',
    destinationId: 'company-3',
    destinationName: 'Initech Academy',
    registrationCount: 18,
    registrationCap: 20,
  }),
]

/** A list answer; page and pageSize echo the request. */
export function makeDispatchList(
  request: Request,
  overrides: { dispatches?: Dispatch[]; totalItems?: number; summary?: Partial<DispatchSummary> } = {},
): DispatchListResponse {
  const dispatches = overrides.dispatches ?? dispatchFixtures
  const totalItems = overrides.totalItems ?? dispatches.length
  return {
    dispatches,
    pagination: echoedPagination(request, 50, totalItems),
    summary: makeSummary(overrides.summary),
  }
}

/** /api/dispatches/courses and /destinations belong to other handlers: fall through to them. */
const OTHER_ROUTES = new Set(['courses', 'destinations'])

/** A dispatch's licence history: one entry, as the sync first found it. */
export const makeHistoryEntry = fixtureBuilder<DispatchHistoryEntry>(() => ({
  id: 1,
  occurredAt: '2026-01-02T03:04:05.000Z',
  kind: 'created',
  oldValue: null,
  newValue: null,
  countBefore: null,
  countAfter: 12,
  capBefore: null,
  capAfter: 50,
  source: 'upstream',
  actor: { kind: 'sync', id: null, label: 'Found upstream by the sync', email: null },
}))

export const dispatchHandlers = [
  http.get('/api/dispatches/:id/history', () =>
    HttpResponse.json({ entries: [makeHistoryEntry()], nextBefore: null } satisfies DispatchHistoryResponse),
  ),
  http.get('/api/dispatches', ({ request }) => HttpResponse.json(makeDispatchList(request))),
  // Scheduled renewals (a company screen lists them): none by default.
  http.get('/api/dispatches/renewals', () => HttpResponse.json({ renewals: [] })),
  http.get<{ id: string }>('/api/dispatches/:id', ({ params }) => {
    if (OTHER_ROUTES.has(params.id)) return undefined
    return HttpResponse.json(makeDispatch({ id: params.id }))
  }),
  http.put<{ id: string }, UpdateDispatchBody>('/api/dispatches/:id', async ({ params, request }) =>
    HttpResponse.json(makeDispatch({ id: params.id, ...(await request.json()) })),
  ),
]
