import type { CourseDetails } from '@portal/shared'
import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeAll, describe, expect, it } from 'vitest'
import { makeCourseDetails } from '@/testing/mocks/handlers/courses'
import { server } from '@/testing/mocks/server'
import { STOCK_IMAGES, stockImageFor } from '../utils/stock-images'
import { preloadRoutes, recordRequests, renderApp, requestsTo, signInAs } from '@/testing/test-utils'

const DETAILS = '/api/courses/:id/details'
const answer = (overrides: Partial<CourseDetails>) =>
  server.use(
    http.get(DETAILS, ({ params }) => HttpResponse.json(makeCourseDetails({ id: String(params.id), ...overrides }))),
  )

const STAFF_DETAILS: Partial<CourseDetails> = {
  stats: { totalRegistrations: 1234, activeDispatches: 1, totalDispatches: 2 },
  dispatches: [
    {
      id: 'd-1',
      destinationId: 'company-1',
      destinationName: 'Acme Learning',
      enabled: true,
      registrationCount: 8,
      registrationCap: 10,
      created: '2026-01-10T09:30:00.000Z',
    },
    {
      id: 'd-2',
      destinationId: 'company-2',
      destinationName: 'Globex Training',
      enabled: false,
      registrationCount: 3,
      registrationCap: 0,
      created: null,
    },
  ],
}

const panel = () => within(screen.getByRole('region', { name: 'Course Information' }))
const fact = (label: string) => panel().getByText(label, { selector: 'dt' }).nextElementSibling

beforeAll(preloadRoutes)

describe('course details (/courses/{id})', () => {
  it('shows the course with a bundled stock image, the sanitised description and the breadcrumb', async () => {
    signInAs('client')
    const log = recordRequests()
    answer({
      version: '',
      description: '<p>Zebra <strong>text</strong><img src=x onerror="alert(1)"><script>alert(1)</script></p>',
      canRequest: true,
      access: null,
    })
    renderApp('/courses/course-1')
    expect(await screen.findByRole('heading', { level: 1, name: 'Workplace Safety Basics' })).toBeInTheDocument()
    const crumbs = within(screen.getByRole('navigation', { name: 'Breadcrumb' }))
    expect(crumbs.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard')
    expect(crumbs.getByRole('link', { name: 'Courses' })).toHaveAttribute('href', '/courses')
    expect(screen.getByText('v1.0')).toBeInTheDocument()
    const hero = document.querySelector('section img') as HTMLImageElement
    expect(hero.getAttribute('src')).toBe(stockImageFor('course-1'))
    expect(STOCK_IMAGES).toContain(hero.getAttribute('src'))
    const description = screen.getByText('Zebra', { exact: false }).closest('div')!
    expect(description.innerHTML).toBe('<p>Zebra <strong>text</strong></p>')
    expect(screen.getByText('2026-02-14')).toBeInTheDocument()
    expect(within(screen.getByRole('list', { name: 'Tags' })).getAllByRole('listitem')).toHaveLength(2)
    expect(screen.queryByRole('region', { name: 'Course Information' })).not.toBeInTheDocument()
    expect(screen.queryByRole('region', { name: 'Dispatches' })).not.toBeInTheDocument()
    await waitFor(() =>
      expect(requestsTo(log, '/api/logs/action').map((r) => r.body)).toContainEqual({
        action: 'COURSE_DETAILS_LOADED',
        details: { courseId: 'course-1' },
      }),
    )
  })

  it('gives admins the side panel, the visibility switch, Edit Course, the app source, dispatches and the demo', async () => {
    signInAs('admin')
    answer({ ...STAFF_DETAILS, appSource: '7', demoUrl: 'https://demo.example/c1' })
    renderApp('/courses/course-1')
    await screen.findByRole('region', { name: 'Course Information' })
    expect(fact('Course ID')).toHaveTextContent('course-1')
    expect(fact('Created')).toHaveTextContent('2026-01-10')
    expect(fact('Total Registrations')).toHaveTextContent('1,234')
    expect(fact('Active Dispatches')).toHaveTextContent('1')
    expect(fact('Total Dispatches')).toHaveTextContent('2')
    expect(fact('Hosting App')).toHaveTextContent('App 7')
    expect(panel().getByRole('switch', { name: 'Course visibility' })).toBeChecked()
    expect(panel().getByRole('button', { name: 'Edit Course' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'View Demo' })).toHaveAttribute('href', 'https://demo.example/c1')

    const table = within(screen.getByRole('table', { name: 'Dispatches of this course' }))
    const rows = table.getAllByRole('row').slice(1)
    expect(rows.map((r) => within(r).getAllByRole('cell')[0]!.textContent)).toEqual([
      'Acme Learning',
      'Globex Training',
    ])
    expect(within(rows[0]!).getByText('Enabled')).toBeInTheDocument()
    expect(within(rows[0]!).getByText('8 / 10')).toBeInTheDocument()
    expect(within(rows[0]!).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '80')
    expect(within(rows[1]!).getByText('Disabled')).toBeInTheDocument()
    expect(within(rows[1]!).getByText('3 / ∞')).toBeInTheDocument()
    expect(within(rows[1]!).queryByRole('progressbar')).not.toBeInTheDocument()
    expect(within(rows[1]!).getByText('N/A')).toBeInTheDocument()
    expect(within(rows[0]!).getByRole('link', { name: /View Details/ })).toHaveAttribute('href', '/dispatches/d-1')
    expect(screen.queryByRole('region', { name: 'Request This Course' })).not.toBeInTheDocument()
    expect(screen.queryByText('Already Assigned')).not.toBeInTheDocument()
  })

  it.each(['sales', 'internal'] as const)('gives %s the figures and dispatches, no admin controls', async (role) => {
    signInAs(role)
    answer({ ...STAFF_DETAILS, dispatches: [] })
    renderApp('/courses/course-1')
    await screen.findByRole('region', { name: 'Course Information' })
    expect(fact('Total Dispatches')).toHaveTextContent('2')
    expect(panel().queryByRole('switch')).not.toBeInTheDocument()
    expect(panel().queryByRole('button', { name: 'Edit Course' })).not.toBeInTheDocument()
    expect(panel().queryByText('Hosting App')).not.toBeInTheDocument()
    expect(screen.getByText('No dispatches found')).toBeInTheDocument()
    expect(screen.getByText('This course has not been dispatched to any clients yet.')).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'View Demo' })).not.toBeInTheDocument()
    expect(screen.queryByText('Already Assigned')).not.toBeInTheDocument()
  })

  it('shows a client with dispatches its access and the Already Assigned box', async () => {
    signInAs('client')
    answer({ access: { registrations: 17, status: 'Active' }, canRequest: false, assigned: true })
    renderApp('/courses/course-1?request=true')
    const access = within(await screen.findByRole('region', { name: 'Your Access' }))
    expect(access.getByText('17')).toBeInTheDocument()
    expect(access.getByText('Active')).toBeInTheDocument()
    const box = within(screen.getByRole('region', { name: 'Already Assigned' }))
    expect(box.getByText('This course is already assigned to your account.')).toBeInTheDocument()
    expect(screen.queryByLabelText('Number of Licenses')).not.toBeInTheDocument()
  })

  it('shows the demo link to a client only when the server sends it', async () => {
    signInAs('client')
    answer({ canRequest: true, access: null })
    renderApp('/courses/course-1')
    await screen.findByRole('heading', { level: 1, name: 'Workplace Safety Basics' })
    expect(screen.queryByRole('link', { name: 'View Demo' })).not.toBeInTheDocument()

    answer({ canRequest: true, access: null, demoUrl: 'https://demo.example/c1', id: 'course-2' })
    renderApp('/courses/course-2')
    expect(await screen.findByRole('link', { name: 'View Demo' })).toHaveAttribute('href', 'https://demo.example/c1')
  })

  it('says when the course is not found', async () => {
    signInAs('client')
    server.use(http.get(DETAILS, () => HttpResponse.json({ message: 'Course not found' }, { status: 404 })))
    renderApp('/courses/nope')
    expect(await screen.findByRole('alert')).toHaveTextContent('Course not found or data is incomplete.')
  })

  it('says when the course data is incomplete, or the load failed', async () => {
    signInAs('client')
    answer({ title: '' })
    renderApp('/courses/course-1')
    expect(await screen.findByRole('alert')).toHaveTextContent('Course not found or data is incomplete.')
  })

  it('shows the fallback text when the load fails without a message', async () => {
    signInAs('client')
    server.use(http.get(DETAILS, () => HttpResponse.json({}, { status: 500 })))
    renderApp('/courses/course-1')
    expect(await screen.findByRole('alert', {}, { timeout: 3000 })).toHaveTextContent('Failed to fetch course details')
  })
})
