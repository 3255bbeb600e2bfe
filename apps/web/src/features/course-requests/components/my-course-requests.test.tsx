import type { CourseRequest } from '@portal/shared'
import { formatDateTime } from '@portal/shared'
import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { courseRequestFixtures } from '@/testing/mocks/handlers/course-requests'
import { server } from '@/testing/mocks/server'
import { preloadRoutes, recordRequests, renderApp, requestsTo, signInAs } from '@/testing/test-utils'

const LIST = '/api/course-requests'
const answer = (requests: CourseRequest[]) => server.use(http.get(LIST, () => HttpResponse.json(requests)))
const rows = () => screen.getAllByRole('row').slice(1)
const card = (name: string) => within(screen.getByRole('region', { name }))

afterEach(() => {
  window.innerWidth = 1024
})
beforeAll(preloadRoutes)

describe('My Course Requests (/course-requests)', () => {
  it('shows the summary, the table with date and time, the demo rule and the admin notes', async () => {
    signInAs('client')
    renderApp('/course-requests')
    expect(await screen.findByRole('heading', { level: 1, name: 'My Course Requests' })).toBeInTheDocument()
    await screen.findByRole('table', { name: 'My course requests' })
    expect(card('Pending').getByText('1')).toBeInTheDocument()
    expect(card('Processed').getByText('1')).toBeInTheDocument()
    expect(card('Completed').getByText('1')).toBeInTheDocument()
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Course',
      'Licenses',
      'Request Date',
      'Demo',
    ])
    const [first, second] = rows()
    expect(within(first!).getByText('Workplace Safety Basics')).toBeInTheDocument()
    expect(within(first!).getByText(formatDateTime('2026-03-02T09:15:00.000Z'))).toBeInTheDocument()
    expect(within(first!).getByText('No demo available')).toBeInTheDocument()
    expect(within(second!).getByRole('link', { name: /View Demo/ })).toHaveAttribute(
      'href',
      'https://demo.example/course-2',
    )
    expect(within(second!).getByText('Demo is ready.')).toBeInTheDocument()
  })

  it('searches by course title and filters by status', async () => {
    signInAs('client')
    const { user } = renderApp('/course-requests')
    await screen.findByRole('table', { name: 'My course requests' })
    await user.type(screen.getByLabelText('Search'), 'DATA')
    expect(rows()).toHaveLength(1)
    // The requestor's name is not searched on this screen.
    await user.clear(screen.getByLabelText('Search'))
    await user.type(screen.getByLabelText('Search'), 'Gus')
    expect(screen.getByText('No requests found')).toBeInTheDocument()
    expect(screen.getByText('Try adjusting your search or filter criteria.')).toBeInTheDocument()
    await user.clear(screen.getByLabelText('Search'))
    expect(
      within(screen.getByLabelText('Status'))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['All Statuses', 'Pending', 'Processed', 'Completed'])
    await user.selectOptions(screen.getByLabelText('Status'), 'Completed')
    expect(rows().map((r) => within(r).getAllByRole('cell')[0]!.textContent)).toEqual([
      'Leadership FoundationsCompleted',
    ])
  })

  it('says when the client has not requested anything yet', async () => {
    signInAs('client')
    answer([])
    renderApp('/course-requests')
    expect(await screen.findByText('No requests found')).toBeInTheDocument()
    expect(screen.getByText('You have not requested any courses yet.')).toBeInTheDocument()
  })

  it('reloads on Refresh', async () => {
    signInAs('client')
    answer([])
    const { user } = renderApp('/course-requests')
    await screen.findByText('You have not requested any courses yet.')
    answer(courseRequestFixtures)
    await user.click(screen.getByRole('button', { name: 'Refresh' }))
    await waitFor(() => expect(rows()).toHaveLength(3))
  })

  it('shows cards on small screens', async () => {
    window.innerWidth = 600
    signInAs('client')
    renderApp('/course-requests')
    const list = within(await screen.findByRole('list', { name: 'My course requests' }))
    expect(list.getAllByRole('listitem')).toHaveLength(3)
    expect(screen.queryByRole('table')).not.toBeInTheDocument()
  })

  it('shows the load error', async () => {
    signInAs('client')
    server.use(http.get(LIST, () => HttpResponse.json({}, { status: 500 })))
    renderApp('/course-requests')
    expect(await screen.findByRole('alert', {}, { timeout: 3000 })).toHaveTextContent('Failed to fetch course requests')
  })

  it.each(['admin', 'sales', 'internal'] as const)('shows no request list to %s', async (role) => {
    signInAs(role)
    const log = recordRequests()
    renderApp('/course-requests')
    expect(await screen.findByText(/Only client accounts request courses/)).toBeInTheDocument()
    const link = screen.queryByRole('link', { name: 'Go to Course Requests' })
    if (role === 'internal') expect(link).not.toBeInTheDocument()
    else expect(link).toHaveAttribute('href', '/admin/course-requests')
    expect(requestsTo(log, '/api/course-requests')).toEqual([])
  })
})
