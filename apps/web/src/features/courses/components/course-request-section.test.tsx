import type { CourseDetails } from '@portal/shared'
import { fireEvent, screen, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeAll, describe, expect, it, vi } from 'vitest'
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

const answer = (overrides: Partial<CourseDetails>) =>
  server.use(
    http.get('/api/courses/:id/details', ({ params }) =>
      HttpResponse.json(makeCourseDetails({ id: String(params.id), ...overrides })),
    ),
  )

beforeAll(preloadRoutes)

describe('request form (clients)', () => {
  it('opens at once with ?request=true and sends licenses, notes and the course', async () => {
    signInAs('client')
    answer({ canRequest: true, access: null })
    const log = recordRequests()
    const { user } = renderApp('/courses/course-1?request=true')
    const licenses = await screen.findByLabelText('Number of Licenses')
    expect(licenses).toHaveValue(1)
    expect(licenses).toHaveAttribute('min', '1')
    const notes = screen.getByLabelText('Notes')
    expect(notes).toHaveAttribute('placeholder', 'Any specific requirements or questions?')
    await user.clear(licenses)
    await user.type(licenses, '12')
    await user.type(notes, 'Before March, please')
    await user.click(screen.getByRole('button', { name: 'Submit Request' }))
    expect(await screen.findByText('Course request submitted successfully!')).toBeInTheDocument()
    expect(screen.queryByLabelText('Number of Licenses')).not.toBeInTheDocument()
    expect(requestsTo(log, '/api/course-requests').map((r) => r.body)).toEqual([
      { courseId: 'course-1', courseTitle: 'Workplace Safety Basics', licenses: 12, notes: 'Before March, please' },
    ])
  })

  it('stays closed without ?request=true until Request Course is pressed; an empty number is 1', async () => {
    signInAs('client')
    answer({ canRequest: true, access: null })
    const log = recordRequests()
    const { user } = renderApp('/courses/course-1')
    await user.click(await screen.findByRole('button', { name: 'Request Course' }))
    await user.clear(screen.getByLabelText('Number of Licenses'))
    fireEvent.submit(screen.getByRole('button', { name: 'Submit Request' }).closest('form')!)
    await screen.findByText('Course request submitted successfully!')
    expect((requestsTo(log, '/api/course-requests')[0]?.body as { licenses: number }).licenses).toBe(1)
  })

  it('refuses a number of licenses out of range with the limits named, and sends nothing', async () => {
    signInAs('client')
    answer({ canRequest: true, access: null })
    const log = recordRequests()
    const { user } = renderApp('/courses/course-1?request=true')
    const licenses = await screen.findByLabelText('Number of Licenses')
    for (const value of ['99999999999', '0']) {
      await user.clear(licenses)
      await user.type(licenses, value)
      await user.click(screen.getByRole('button', { name: 'Submit Request' }))
      expect(await screen.findByText('Licenses must be a whole number from 1 to 1,000,000.')).toBeInTheDocument()
      expect(licenses).toHaveAttribute('aria-invalid', 'true')
    }
    expect(screen.queryByText('Course request submitted successfully!')).not.toBeInTheDocument()
    expect(requestsTo(log, '/api/course-requests')).toEqual([])
  })

  it('counts the notes against their limit and refuses past it, without cutting them', async () => {
    signInAs('client')
    answer({ canRequest: true, access: null })
    const log = recordRequests()
    const { user } = renderApp('/courses/course-1?request=true')
    const notes = await screen.findByLabelText('Notes')
    expect(screen.getByText('0 / 2,000')).toBeInTheDocument()
    fireEvent.change(notes, { target: { value: 'n'.repeat(1990) } })
    expect(screen.getByText('1,990 / 2,000')).toBeInTheDocument()
    fireEvent.change(notes, { target: { value: 'n'.repeat(2500) } })
    expect(notes).toHaveValue('n'.repeat(2500))
    expect(screen.getByText('2,500 / 2,000')).toBeInTheDocument()
    expect(screen.getByText('Notes can be at most 2,000 characters (2,500 entered).')).toBeInTheDocument()
    expect(notes).toHaveAttribute('aria-invalid', 'true')
    await user.click(screen.getByRole('button', { name: 'Submit Request' }))
    expect(requestsTo(log, '/api/course-requests')).toEqual([])
  })

  it('shows the server message, or the default text, when the request fails', async () => {
    signInAs('client')
    answer({ canRequest: true, access: null })
    server.use(
      http.post('/api/course-requests', () =>
        HttpResponse.json({ message: 'This course is already assigned to your account.' }, { status: 409 }),
      ),
    )
    const { user } = renderApp('/courses/course-1?request=true')
    await user.click(await screen.findByRole('button', { name: 'Submit Request' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('This course is already assigned to your account.')
    server.use(http.post('/api/course-requests', () => HttpResponse.json({}, { status: 500 })))
    await user.click(screen.getByRole('button', { name: 'Submit Request' }))
    expect(await screen.findByText('Failed to submit request. Please try again.')).toBeInTheDocument()
  })

  it('clears the success message after 5 s', async () => {
    signInAs('client')
    answer({ canRequest: true, access: null })
    vi.useFakeTimers({ shouldAdvanceTime: true })
    renderApp('/courses/course-1?request=true')
    await pollUntil(() => expect(screen.getByRole('button', { name: 'Submit Request' })).toBeInTheDocument())
    fireEvent.click(screen.getByRole('button', { name: 'Submit Request' }))
    await pollUntil(() => expect(screen.getByText('Course request submitted successfully!')).toBeInTheDocument())
    await advance(4900)
    expect(screen.getByText('Course request submitted successfully!')).toBeInTheDocument()
    await advance(200)
    expect(screen.queryByText('Course request submitted successfully!')).not.toBeInTheDocument()
  })
})

describe('visibility switch (admin)', () => {
  it('hides the course and says so for 3 s', async () => {
    signInAs('admin')
    answer({
      isVisible: true,
      stats: { totalRegistrations: 0, activeDispatches: 0, totalDispatches: 0 },
      dispatches: [],
    })
    const log = recordRequests()
    vi.useFakeTimers({ shouldAdvanceTime: true })
    renderApp('/courses/course-1')
    await pollUntil(() => expect(screen.getByRole('switch', { name: 'Course visibility' })).toBeChecked())
    fireEvent.click(screen.getByRole('switch', { name: 'Course visibility' }))
    await pollUntil(() => expect(screen.getByText('Course visibility updated to hidden')).toBeInTheDocument())
    expect(screen.getByRole('switch', { name: 'Course visibility' })).not.toBeChecked()
    expect(requestsTo(log, '/api/courses/course-1/visibility').map((r) => r.body)).toEqual([{ isVisible: false }])
    await advance(3100)
    expect(screen.queryByText('Course visibility updated to hidden')).not.toBeInTheDocument()
  })

  it('shows the failure for 3 s and keeps the switch as it was', async () => {
    signInAs('admin')
    answer({
      isVisible: false,
      stats: { totalRegistrations: 0, activeDispatches: 0, totalDispatches: 0 },
      dispatches: [],
    })
    server.use(http.put('/api/courses/:id/visibility', () => HttpResponse.json({}, { status: 500 })))
    vi.useFakeTimers({ shouldAdvanceTime: true })
    renderApp('/courses/course-1')
    await pollUntil(() => expect(screen.getByRole('switch', { name: 'Course visibility' })).not.toBeChecked())
    fireEvent.click(screen.getByRole('switch', { name: 'Course visibility' }))
    await pollUntil(() => expect(screen.getByRole('alert')).toHaveTextContent('Failed to update course visibility'))
    const panel = within(screen.getByRole('region', { name: 'Course Information' }))
    expect(panel.getByRole('switch', { name: 'Course visibility' })).not.toBeChecked()
    await advance(3100)
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
  })
})
