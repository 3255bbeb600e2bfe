import type { Course } from '@portal/shared'
import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeAll, describe, expect, it } from 'vitest'
import { makeCourse, makeCourseList } from '@/testing/mocks/handlers/courses'
import { server } from '@/testing/mocks/server'
import { preloadRoutes, recordRequests, renderApp, requestsTo, signInAs } from '@/testing/test-utils'

const LIST = '/api/dispatches/courses'
const answer = (courses: Course[], lastSyncedAt: string | null = null) =>
  server.use(http.get(LIST, () => HttpResponse.json(makeCourseList(courses, lastSyncedAt))))

const titles = () => screen.getAllByRole('article').map((a) => within(a).getByRole('heading').textContent)
const many = (n: number) =>
  Array.from({ length: n }, (_, i) =>
    makeCourse({ id: `c-${i + 1}`, title: `Course ${String(i + 1).padStart(3, '0')}`, tags: [] }),
  )

beforeAll(preloadRoutes)

describe('courses catalogue (/courses)', () => {
  it('shows the cards with version, summary, duration, level, updated date and tags', async () => {
    signInAs('sales')
    answer([
      makeCourse({ tags: ['a', 'b', 'c', 'd', 'e'], version: '' }),
      makeCourse({ id: 'c-2', title: 'No Date', updated: null }),
    ])
    renderApp('/courses')
    expect(await screen.findByRole('heading', { level: 1, name: 'Courses' })).toBeInTheDocument()
    const card = within(await screen.findByRole('article', { name: 'Workplace Safety Basics' }))
    expect(card.getByText('v1.0')).toBeInTheDocument()
    expect(card.getByText('Stay safe at work.')).toBeInTheDocument()
    expect(card.getByText('45 minutes')).toBeInTheDocument()
    expect(card.getByText('Beginner')).toBeInTheDocument()
    expect(card.getByText('2026-02-14')).toBeInTheDocument()
    expect(
      within(card.getByRole('list', { name: 'Tags' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['a', 'b', 'c', '+2 more'])
    expect(card.getByRole('link', { name: /View Details/ })).toHaveAttribute('href', '/courses/course-1')
    expect(within(screen.getByRole('article', { name: 'No Date' })).getByText('N/A')).toBeInTheDocument()
    expect(screen.queryByText(/App /)).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Sync Courses' })).not.toBeInTheDocument()
    expect(screen.queryByLabelText('Visibility')).not.toBeInTheDocument()
    expect(screen.getByText('Showing 1 to 2 of 2 courses')).toBeInTheDocument()
  })

  it('searches titles and tags case-insensitively and records the search', async () => {
    signInAs('client')
    const log = recordRequests()
    const { user } = renderApp('/courses')
    await screen.findByRole('article', { name: 'Workplace Safety Basics' })
    await user.type(screen.getByLabelText('Search'), 'GDPR')
    await waitFor(() => expect(titles()).toEqual(['Data Protection Essentials']))
    await user.clear(screen.getByLabelText('Search'))
    await user.type(screen.getByLabelText('Search'), 'leader')
    await waitFor(() => expect(titles()).toEqual(['leadership Foundations']))
    await user.clear(screen.getByLabelText('Search'))
    await user.type(screen.getByLabelText('Search'), 'zzz')
    expect(await screen.findByText('No courses found')).toBeInTheDocument()
    expect(screen.getByText('Try adjusting your search or filter criteria.')).toBeInTheDocument()
    await waitFor(() => {
      const actions = requestsTo(log, '/api/logs/action').map((r) => r.body)
      expect(actions).toContainEqual({ action: 'COURSE_OVERVIEW_VIEWED' })
      expect(actions).toContainEqual({ action: 'COURSE_SEARCH_PERFORMED', details: { search: 'GDPR' } })
    })
  })

  it('sorts by title, registrations and last updated, in both orders', async () => {
    signInAs('internal')
    const { user } = renderApp('/courses')
    await screen.findByRole('article', { name: 'Workplace Safety Basics' })
    expect(titles()).toEqual(['Data Protection Essentials', 'leadership Foundations', 'Workplace Safety Basics'])
    await user.selectOptions(screen.getByLabelText('Order'), 'Descending')
    expect(titles()).toEqual(['Workplace Safety Basics', 'leadership Foundations', 'Data Protection Essentials'])
    await user.selectOptions(screen.getByLabelText('Sort By'), 'Registrations')
    expect(titles()).toEqual(['leadership Foundations', 'Workplace Safety Basics', 'Data Protection Essentials'])
    await user.selectOptions(screen.getByLabelText('Order'), 'Ascending')
    expect(titles()).toEqual(['Data Protection Essentials', 'Workplace Safety Basics', 'leadership Foundations'])
    await user.selectOptions(screen.getByLabelText('Sort By'), 'Last Updated')
    // A course without a date comes last either way.
    expect(titles()).toEqual(['Workplace Safety Basics', 'Data Protection Essentials', 'leadership Foundations'])
    await user.selectOptions(screen.getByLabelText('Order'), 'Descending')
    expect(titles()).toEqual(['Data Protection Essentials', 'Workplace Safety Basics', 'leadership Foundations'])
  })

  it('pages 12 at a time by default, with a window of 5 pages, and changes the page size', async () => {
    signInAs('admin')
    answer(many(130))
    const { user } = renderApp('/courses')
    await screen.findByRole('article', { name: 'Course 001' })
    expect(screen.getAllByRole('article')).toHaveLength(12)
    expect(screen.getByText('Showing 1 to 12 of 130 courses')).toBeInTheDocument()
    const pages = within(screen.getByRole('navigation', { name: 'Course pages' }))
    expect(pages.getAllByRole('button', { name: /^Page / }).map((b) => b.textContent)).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
    ])
    await user.click(pages.getByRole('button', { name: 'Page 5' }))
    expect(screen.getByText('Showing 49 to 60 of 130 courses')).toBeInTheDocument()
    expect(pages.getAllByRole('button', { name: /^Page / }).map((b) => b.textContent)).toEqual([
      '3',
      '4',
      '5',
      '6',
      '7',
    ])
    expect(
      within(screen.getByLabelText('Items per page'))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['12', '24', '50', '100', '200'])
    await user.selectOptions(screen.getByLabelText('Items per page'), '50')
    expect(screen.getAllByRole('article')).toHaveLength(50)
    expect(screen.getByText('Showing 1 to 50 of 130 courses')).toBeInTheDocument()
    await user.selectOptions(screen.getByLabelText('Items per page'), '200')
    expect(screen.getAllByRole('article')).toHaveLength(130)
    expect(screen.queryByRole('navigation', { name: 'Course pages' })).not.toBeInTheDocument()
    // Rendering 130 cards in jsdom takes seconds on a busy machine.
  }, 20_000)

  it('gives admins the visibility filter (undefined counts as hidden) and the app and visibility badges', async () => {
    signInAs('admin')
    const legacy = { ...makeCourse({ id: 'c-3', title: 'Legacy' }) } as Partial<Course>
    delete legacy.isVisible
    answer([
      makeCourse({ id: 'c-1', title: 'Shown', appSource: '7' }),
      makeCourse({ id: 'c-2', title: 'Secret', isVisible: false, appSource: '7' }),
      legacy as Course,
    ])
    const { user } = renderApp('/courses')
    const shown = within(await screen.findByRole('article', { name: 'Shown' }))
    expect(shown.getByText('App 7')).toBeInTheDocument()
    expect(shown.getByText('Visible')).toBeInTheDocument()
    expect(within(screen.getByRole('article', { name: 'Secret' })).getByText('Hidden')).toBeInTheDocument()
    expect(
      within(screen.getByLabelText('Visibility'))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['All Courses', 'Visible Only', 'Hidden Only'])
    await user.selectOptions(screen.getByLabelText('Visibility'), 'Visible Only')
    expect(titles()).toEqual(['Shown'])
    await user.selectOptions(screen.getByLabelText('Visibility'), 'Hidden Only')
    expect(titles()).toEqual(['Legacy', 'Secret'])
  })

  it('offers clients Request on requestable courses and Already Assigned otherwise', async () => {
    signInAs('client')
    answer([
      makeCourse({ id: 'c-1', title: 'Open', requestable: true, assigned: false }),
      makeCourse({ id: 'c-2', title: 'Mine', requestable: false, assigned: true }),
    ])
    renderApp('/courses')
    const open = within(await screen.findByRole('article', { name: 'Open' }))
    expect(open.getByRole('link', { name: /Request/ })).toHaveAttribute('href', '/courses/c-1?request=true')
    expect(open.queryByText('Already Assigned')).not.toBeInTheDocument()
    const mine = within(screen.getByRole('article', { name: 'Mine' }))
    expect(mine.getByText('Already Assigned')).toBeInTheDocument()
    expect(mine.queryByRole('link', { name: /Request/ })).not.toBeInTheDocument()
  })

  it('shows when the catalogue was last synced', async () => {
    signInAs('client')
    answer([makeCourse()], '2026-03-01T10:00:00.000Z')
    renderApp('/courses')
    expect(await screen.findByText(/^Catalogue last synced: 2026-03-01/)).toBeInTheDocument()
  })

  it('replaces the screen with an error banner when the catalogue fails to load', async () => {
    signInAs('client')
    server.use(http.get(LIST, () => HttpResponse.json({}, { status: 500 })))
    renderApp('/courses')
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch courses')
    expect(screen.queryByLabelText('Search')).not.toBeInTheDocument()
  })
})
