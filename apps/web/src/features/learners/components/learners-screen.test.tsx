import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import {
  LEARNER_REGISTRATIONS_LIMIT,
  type LearnerListResponse,
  type LearnerRegistration,
  type LearnerRegistrationsResponse,
} from '@portal/shared'
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

/** Each company's own learner, so a list shows whose learners it holds. */
const learnersOf = (companyId: string): LearnerListResponse => {
  const base = answer(false)
  const email = `${companyId}-learner@example.test`
  return { ...base, learners: base.learners.map((l) => ({ ...l, email, learnerId: email })) }
}

const registration = (i: number): LearnerRegistration => ({
  id: `r-${i}`,
  dispatchId: `d-${i}`,
  courseId: `course-${i}`,
  courseTitle: `Course ${i}`,
  completionStatus: 'completed',
  successStatus: 'passed',
  score: 0.9,
  totalTimeTracked: 60,
  firstAccessDate: '2026-10-01T10:00:00.000Z',
  lastAccessDate: '2026-11-01T10:00:00.000Z',
  completedDate: '2026-11-01T10:00:00.000Z',
})

/** Ann's details, listing `count` registrations. */
async function openDetails(count: number) {
  signInAs('client')
  server.use(
    http.get('/api/learners', () => HttpResponse.json(answer(false))),
    http.get('/api/learners/:email/registrations', () =>
      HttpResponse.json({
        learner: { email: 'ann@example.test', firstName: 'Ann', lastName: 'Archer' },
        registrations: Array.from({ length: count }, (_, i) => registration(i)),
      } satisfies LearnerRegistrationsResponse),
    ),
  )
  renderApp('/learners?learner=ann%40example.test')
  const dialog = await screen.findByRole('dialog', { name: 'Learner: Ann Archer' })
  await within(dialog).findByText('Course 0')
  // Counted without role queries, which are slow over 500 rows.
  return { dialog: within(dialog), rows: dialog.querySelectorAll('tbody tr').length }
}

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

  it('says a learner’s details show only the first registrations when the server’s cap is reached', async () => {
    const { dialog, rows } = await openDetails(LEARNER_REGISTRATIONS_LIMIT)
    expect(rows).toBe(LEARNER_REGISTRATIONS_LIMIT)
    expect(dialog.getByText('Showing the first 500 registrations, most recently accessed first.')).toBeInTheDocument()
  })

  it('says nothing of a cap below it', async () => {
    const { dialog, rows } = await openDetails(3)
    expect(rows).toBe(3)
    expect(dialog.queryByText(/Showing the first/)).not.toBeInTheDocument()
  })

  it('keeps the company a staff user picks in the URL, and a reload shows its learners again', async () => {
    signInAs('sales')
    const asked: (string | null)[] = []
    server.use(
      http.get('/api/learners', ({ request }) => {
        const companyId = new URL(request.url).searchParams.get('companyId')
        asked.push(companyId)
        return HttpResponse.json(learnersOf(companyId ?? ''))
      }),
    )
    const first = renderApp('/learners')
    expect(await screen.findByText('Choose a company')).toBeInTheDocument()
    await first.user.type(screen.getByRole('searchbox', { name: 'Search companies' }), 'glob')
    const picker = screen.getByRole('listbox', { name: 'Company' })
    await waitFor(() =>
      expect(
        within(picker)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['Globex Training']),
    )
    await first.user.selectOptions(picker, 'company-2')
    expect(await screen.findByText('company-2-learner@example.test')).toBeInTheDocument()
    const { pathname, search } = first.router.state.location
    expect(new URLSearchParams(search).get('companyId')).toBe('company-2')
    expect(asked).toEqual(['company-2'])

    // A reload: a fresh app (no cached queries) opened at that URL.
    first.unmount()
    renderApp(`${pathname}${search}`)
    expect(await screen.findByText('company-2-learner@example.test')).toBeInTheDocument()
    expect(screen.getByRole('listbox', { name: 'Company' })).toHaveValue('company-2')
    expect(screen.queryByText('Choose a company')).not.toBeInTheDocument()
    expect(asked).toEqual(['company-2', 'company-2'])
  })
})
