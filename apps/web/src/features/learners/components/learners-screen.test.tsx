import { screen } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import type { LearnerListResponse } from '@portal/shared'
import { beforeAll, describe, expect, it } from 'vitest'
import { server } from '@/testing/mocks/server'
import { preloadRoutes, renderApp, signInAs } from '@/testing/test-utils'

beforeAll(preloadRoutes)

const answer = (building: boolean): LearnerListResponse => ({
  learners: [
    {
      email: 'ann@example.test',
      learnerId: 'ann',
      firstName: 'Ann',
      lastName: 'Archer',
      courses: 1,
      completed: 1,
      inProgress: 0,
      notStarted: 0,
      averageScore: 0.9,
      totalTime: 60,
      lastAccessDate: '2026-11-01T10:00:00.000Z',
    },
  ],
  pagination: { totalItems: 1, page: 1, pageSize: 50, totalPages: 1 },
  totalCapped: false,
  courses: [],
  building,
})

describe('learners screen (/learners)', () => {
  it('says so while the first sync builds the learner figures', async () => {
    signInAs('client')
    server.use(http.get('/api/learners', () => HttpResponse.json(answer(true))))
    renderApp('/learners')
    expect(await screen.findByText('ann@example.test')).toBeInTheDocument()
    const notice = screen.getByText(
      "The first sync is still building this company's learner figures. The list is complete when it finishes.",
    )
    expect(notice.closest('[role="status"]')).not.toBeNull()
  })

  it('shows no such notice once they are built', async () => {
    signInAs('client')
    server.use(http.get('/api/learners', () => HttpResponse.json(answer(false))))
    renderApp('/learners')
    expect(await screen.findByText('ann@example.test')).toBeInTheDocument()
    expect(screen.queryByText(/still building/)).not.toBeInTheDocument()
  })
})
