import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { makeCourseDetails } from '@/testing/mocks/handlers/courses'
import { server } from '@/testing/mocks/server'
import {
  advance,
  pollUntil,
  preloadRoutes,
  recordRequests,
  renderApp,
  requestsTo,
  signInAs,
} from '@/testing/test-utils'

const rows = () => screen.getAllByRole('row').slice(1)
const row = (course: string) => rows().find((r) => within(r).queryByText(course))!
const courseDemo = (demoUrl: string | null) =>
  server.use(
    http.get('/api/courses/:id/details', ({ params }) =>
      HttpResponse.json(makeCourseDetails({ id: String(params.id), demoUrl })),
    ),
  )

afterEach(() => {
  window.innerWidth = 1024
})
beforeAll(preloadRoutes)

describe('Course Requests (/admin/course-requests)', () => {
  it('lists every request for sales, view only', async () => {
    signInAs('sales')
    renderApp('/admin/course-requests')
    await screen.findByRole('table', { name: 'Course requests' })
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Course',
      'Requestor',
      'Company',
      'Licenses',
      'Status',
      'Date',
      'Demo',
      'Actions',
    ])
    expect(within(row('Leadership Foundations')).getByText('N/A')).toBeInTheDocument()
    expect(within(row('Workplace Safety Basics')).getByText('No demo')).toBeInTheDocument()
    expect(within(row('Data Protection Essentials')).getByRole('link', { name: /View Demo/ })).toBeInTheDocument()
    expect(screen.getAllByText('View Only')).toHaveLength(3)
    expect(screen.queryByRole('button', { name: /Edit/ })).not.toBeInTheDocument()
  })

  it('searches by course, user and company, and filters by status', async () => {
    signInAs('admin')
    const { user } = renderApp('/admin/course-requests')
    await screen.findByRole('table', { name: 'Course requests' })
    for (const [term, course] of [
      ['protection', 'Data Protection Essentials'],
      ['nina', 'Leadership Foundations'],
      ['ACME', 'Workplace Safety Basics'],
    ] as const) {
      await user.clear(screen.getByLabelText('Search'))
      await user.type(screen.getByLabelText('Search'), term)
      expect(rows()).toHaveLength(1)
      expect(within(rows()[0]!).getByText(course)).toBeInTheDocument()
    }
    await user.clear(screen.getByLabelText('Search'))
    await user.selectOptions(screen.getByLabelText('Status'), 'Pending')
    expect(rows()).toHaveLength(1)
  })

  it('updates the status from the modal with notes and the course demo URL, then toasts for 5 s', async () => {
    signInAs('admin')
    courseDemo('https://demo.example/course-1')
    const log = recordRequests()
    vi.useFakeTimers({ shouldAdvanceTime: true })
    renderApp('/admin/course-requests')
    await pollUntil(() => expect(screen.getByRole('table', { name: 'Course requests' })).toBeInTheDocument())
    fireEvent.click(within(row('Workplace Safety Basics')).getByRole('button', { name: /Edit/ }))

    const dialog = within(screen.getByRole('dialog', { name: 'Update Request Status' }))
    expect(screen.getByRole('dialog')).toHaveAttribute('aria-modal', 'true')
    expect(dialog.getByText('Acme Learning')).toBeInTheDocument()
    expect(dialog.getByText('For the new starters.')).toBeInTheDocument()
    expect(dialog.getByText('These notes are visible to the client.')).toBeInTheDocument()
    await pollUntil(() => expect(dialog.getByLabelText('Demo URL')).toHaveValue('https://demo.example/course-1'))
    // Fulfilling is the modal's main action: focus starts on its cap.
    expect(dialog.getByLabelText('License cap')).toHaveFocus()
    expect(dialog.getAllByRole('button').map((b) => b.textContent)).toEqual([
      '',
      'Create dispatch', // Fulfil in one step
      'Mark as Processed',
      'Mark as Completed',
      'Close',
    ])
    fireEvent.change(dialog.getByLabelText('Admin Notes'), { target: { value: 'Demo sent' } })
    fireEvent.click(dialog.getByRole('button', { name: 'Mark as Processed' }))

    await pollUntil(() => expect(screen.getByRole('status')).toHaveTextContent('Request updated successfully.'))
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(requestsTo(log, '/api/course-requests/req-1/status').map((r) => r.body)).toEqual([
      { status: 'PROCESSED', adminNotes: 'Demo sent', demoUrl: 'https://demo.example/course-1' },
    ])
    await advance(4900)
    expect(screen.getByText('Request updated successfully.')).toBeInTheDocument()
    await advance(200)
    expect(screen.queryByText('Request updated successfully.')).not.toBeInTheDocument()
  })

  it('offers the other statuses, says when no demo is configured, toasts failures and closes on Escape', async () => {
    signInAs('admin')
    courseDemo(null)
    server.use(http.put('/api/course-requests/:id/status', () => HttpResponse.json({}, { status: 500 })))
    const { user } = renderApp('/admin/course-requests')
    await screen.findByRole('table', { name: 'Course requests' })
    await user.click(within(row('Leadership Foundations')).getByRole('button', { name: /Edit/ }))
    const dialog = within(screen.getByRole('dialog', { name: 'Update Request Status' }))
    expect(await dialog.findByText(/No demo URL is configured for this course/)).toBeInTheDocument()
    expect(dialog.getByRole('button', { name: 'Set as Pending' })).toBeInTheDocument()
    expect(dialog.getByRole('button', { name: 'Mark as Processed' })).toBeInTheDocument()
    expect(dialog.queryByRole('button', { name: 'Mark as Completed' })).not.toBeInTheDocument()
    await user.click(dialog.getByRole('button', { name: 'Set as Pending' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to update request')
    expect(screen.getByRole('dialog')).toBeInTheDocument()
    await user.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
  })

  it('reads the course demo URL afresh each time the modal opens', async () => {
    signInAs('admin')
    courseDemo(null)
    const { user } = renderApp('/admin/course-requests')
    await screen.findByRole('table', { name: 'Course requests' })
    await user.click(within(row('Leadership Foundations')).getByRole('button', { name: /Edit/ }))
    expect(await screen.findByText(/No demo URL is configured for this course/)).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Close' }))
    // Meanwhile the course got a demo link in its details.
    courseDemo('https://demo.example/new')
    await user.click(within(row('Leadership Foundations')).getByRole('button', { name: /Edit/ }))
    const dialog = within(screen.getByRole('dialog', { name: 'Update Request Status' }))
    expect(await dialog.findByLabelText('Demo URL')).toHaveValue('https://demo.example/new')
  })

  it('shows cards with notes and Edit Request for admins on small screens', async () => {
    window.innerWidth = 600
    signInAs('admin')
    renderApp('/admin/course-requests')
    const list = within(await screen.findByRole('list', { name: 'Course requests' }))
    expect(list.getAllByRole('listitem')).toHaveLength(3)
    expect(list.getAllByText('For the new starters.')).toHaveLength(2)
    expect(list.getAllByRole('button', { name: 'Edit Request' })).toHaveLength(3)
  })

  it.each(['client', 'internal'] as const)('shows Access Denied to %s', async (role) => {
    signInAs(role)
    const log = recordRequests()
    renderApp('/admin/course-requests')
    expect(await screen.findByRole('heading', { name: 'Access Denied' })).toBeInTheDocument()
    expect(screen.getByText("You don't have permission to view this page.")).toBeInTheDocument()
    expect(requestsTo(log, '/api/course-requests')).toEqual([])
  })
})
