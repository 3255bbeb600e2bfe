import type { Company, CompanyDetail, CompanySyncResponse, SalesUser } from '@portal/shared'
import { http, HttpResponse } from 'msw'
import { fixtureBuilder } from '../fixture'

export const salesUserFixtures: SalesUser[] = [
  { id: 'sales-1', name: 'Sam Sales', email: 'sam@example.com' },
  { id: 'sales-2', name: 'Sue Seller', email: 'sue@example.com' },
]

/** The first company of the fixtures, as the list and the detail screen show it. */
const acme = {
  id: 'company-1',
  name: 'Acme Learning',
  accountManagerId: 'sales-1',
  accountManagerName: 'Sam Sales',
  accountManagerEmail: 'sam@example.com',
}

export const makeCompany = fixtureBuilder<Company>(() => ({
  ...acme,
  counts: { users: 4, courseRequests: 2, dispatches: 3 },
}))

export const companyFixtures: Company[] = [
  makeCompany(),
  makeCompany({
    id: 'company-2',
    name: 'Globex Training',
    accountManagerId: null,
    accountManagerName: null,
    accountManagerEmail: null,
    counts: { users: 1, courseRequests: 0, dispatches: 1 },
  }),
  makeCompany({
    id: 'company-3',
    name: 'Initech Academy',
    accountManagerId: 'sales-2',
    accountManagerName: 'Sue Seller',
    accountManagerEmail: 'sue@example.com',
    counts: { users: 0, courseRequests: 5, dispatches: 0 },
  }),
]

export const makeCompanyDetail = fixtureBuilder<CompanyDetail>(() => ({
  ...acme,
  users: [
    { id: 'user-c1', name: 'Cleo Client', email: 'cleo@acme.test', role: 'client' },
    { id: 'user-c2', name: 'Carl Client', email: 'carl@acme.test', role: 'client' },
  ],
  courseRequests: [
    {
      id: 'req-1',
      courseTitle: 'Data Protection Essentials',
      requestedBy: 'Cleo Client',
      licenses: 25,
      status: 'PENDING',
      createdAt: '2026-03-04T10:00:00.000Z',
    },
  ],
  dispatches: [
    {
      id: 'd-1',
      courseId: 'course-safety',
      courseTitle: 'Workplace Safety Basics',
      created: '2026-01-10T09:30:00.000Z',
      expirationDate: '2026-12-31T00:00:00.000Z',
      licensesUsed: 42,
      licensesTotal: 100,
    },
    {
      id: 'd-2',
      courseId: 'course-leadership',
      courseTitle: 'Leadership Foundations',
      created: '2026-02-01T09:30:00.000Z',
      expirationDate: null,
      licensesUsed: 7,
      licensesTotal: 0,
    },
  ],
  scormError: null,
}))

export const syncResult: CompanySyncResponse = { created: 2, updated: 5, skipped: 40, errors: 1 }

/** Typed fixtures only; tests override with server.use for failures and edits. */
export const companyHandlers = [
  http.get('/api/admin/companies', () => HttpResponse.json(companyFixtures)),
  // Whether a company's users may make API keys (off by default), and the caller's keys (none).
  http.get('/api/admin/companies/:id/api-keys', () => HttpResponse.json({ allowed: false })),
  http.put('/api/admin/companies/:id/api-keys', async ({ request }) => HttpResponse.json(await request.json())),
  http.get('/api/api-keys', () => HttpResponse.json({ allowed: false, grantable: [], keys: [] })),
  http.get('/api/admin/companies/sync', () => HttpResponse.json(syncResult)),
  http.get<{ id: string }>('/api/admin/companies/:id', ({ params }) => {
    if (params.id === 'sync') return undefined
    return HttpResponse.json(makeCompanyDetail({ id: params.id }))
  }),
  http.put<{ id: string }>('/api/admin/companies/:id', ({ params }) =>
    HttpResponse.json(companyFixtures.find((c) => c.id === params.id) ?? makeCompany({ id: params.id })),
  ),
  http.get('/api/admin/users/sales', () => HttpResponse.json(salesUserFixtures)),
]
