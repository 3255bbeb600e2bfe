import type { LogEntry, LogListResponse, SalesUser } from '@portal/shared'
import { http, HttpResponse } from 'msw'

/** Two users of the list who also wrote log entries. */
const zed: SalesUser = { id: 'u-zed', name: 'Zed Zimmer', email: 'zed@example.com' }
const amy: SalesUser = { id: 'u-amy', name: 'Amy Adams', email: 'amy@example.com' }

export const logUserFixtures: SalesUser[] = [zed, amy, { id: 'u-bob', name: '', email: 'bob@example.com' }]

export const logFixtures: LogEntry[] = [
  {
    id: 3,
    createdAt: '2026-03-02T10:15:30.000Z',
    action: 'PAGE_VIEWED',
    details: { pathname: '/courses' },
    ipAddress: '10.0.0.3',
    user: amy,
  },
  {
    id: 2,
    createdAt: '2026-03-02T09:00:00.000Z',
    action: 'COMPANIES_SYNCED',
    details: null,
    ipAddress: null,
    user: null,
  },
  {
    id: 1,
    createdAt: 'not a date',
    action: 'HELP_BUTTON_CLICKED',
    details: 'User clicked Need help?',
    ipAddress: '10.0.0.1',
    user: zed,
  },
]

/** A logs page; currentPage echoes the request so tests can follow it. */
export function makeLogList(request: Request, overrides: Partial<LogListResponse> = {}): LogListResponse {
  const page = Number(new URL(request.url).searchParams.get('page') ?? 1)
  return { logs: logFixtures, currentPage: page, totalPages: 3, totalLogs: 123, totalLogsCapped: false, ...overrides }
}

export const logHandlers = [
  http.get('/api/logs', ({ request }) => HttpResponse.json(makeLogList(request))),
  http.get('/api/logs/export.csv', () =>
    HttpResponse.text('Timestamp,User Name,User Email,Action,Details,IP Address\r\n', {
      headers: { 'Content-Type': 'text/csv; charset=utf-8' },
    }),
  ),
  http.get('/api/auth/users', () => HttpResponse.json(logUserFixtures)),
]
