import type { JobsOverview } from '@portal/shared'
import { http, HttpResponse } from 'msw'

const zero = { created: 0, retry: 0, active: 0, completed: 0, cancelled: 0, failed: 0 }

/** The admin Jobs screen: two queues, one failure. */
export function jobsOverviewFixture(): JobsOverview {
  return {
    engine: { state: 'running', working: true },
    queues: [
      { name: 'mail-outbox', counts: { ...zero, completed: 12, created: 1 }, schedules: ['* * * * *'] },
      { name: 'alerts-postback', counts: { ...zero, completed: 3, failed: 1 }, schedules: [] },
    ],
    failures: [
      {
        id: '0b7e4b1a-3c4d-4e5f-8a9b-0c1d2e3f4a5b',
        queue: 'alerts-postback',
        error: 'Dispatch d-9 no longer exists in the mirror; there is nothing to evaluate.',
        rejected: true,
        attempts: 1,
        data: { dispatchId: 'd-9' },
        createdAt: '2026-11-28T10:00:00.000Z',
        failedAt: '2026-11-28T10:00:02.000Z',
      },
    ],
  }
}

export const jobHandlers = [
  http.get('/api/admin/jobs', () => HttpResponse.json(jobsOverviewFixture())),
  http.post('/api/admin/jobs/:id/retry', () => HttpResponse.json({ message: 'The job will run again.' })),
  http.post('/api/admin/jobs/:id/cancel', () =>
    HttpResponse.json(
      {
        code: 'CONFLICT',
        message: 'Only a waiting, retrying or running job can be cancelled; this one is not (or no longer exists).',
      },
      { status: 409 },
    ),
  ),
]
