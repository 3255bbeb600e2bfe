import { formatDateTime, type Dispatch } from '@portal/shared'
import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeAll, describe, expect, it } from 'vitest'
import { makeDispatch } from '@/testing/mocks/handlers/dispatches'
import { server } from '@/testing/mocks/server'
import { recordRequests, renderApp, requestsTo, signInAs, preloadRoutes } from '@/testing/test-utils'

const DETAIL = '/api/dispatches/:id'

const answerDispatch = (overrides: Partial<Dispatch>) =>
  server.use(http.get(DETAIL, ({ params }) => HttpResponse.json(makeDispatch({ id: String(params.id), ...overrides }))))

/** The value shown under a label of the General Information card. */
function field(label: string): HTMLElement {
  const card = screen.getByRole('region', { name: /General Information/ })
  const term = within(card).getByText(label, { selector: 'dt' })
  return term.nextElementSibling as HTMLElement
}

// The first visit compiles the lazy route modules, which can outlast findBy's 1 s timeout.
beforeAll(preloadRoutes)

describe('dispatch details (/dispatches/{id})', () => {
  it('shows the General Information of the dispatch', async () => {
    signInAs('admin')
    const log = recordRequests()
    renderApp('/dispatches/d-1')

    expect(await screen.findByRole('heading', { level: 1, name: 'Workplace Safety Basics' })).toBeInTheDocument()
    const breadcrumb = within(screen.getByRole('navigation', { name: 'Breadcrumb' }))
    expect(breadcrumb.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard')

    const card = within(screen.getByRole('region', { name: /General Information/ }))
    expect(card.getByText('Enabled')).toBeInTheDocument()
    expect(field('Client')).toHaveTextContent(/^AAcme Learning$/)
    expect(field('Course')).toHaveTextContent('Workplace Safety Basics')
    expect(field('Registrations')).toHaveTextContent('42 / 100 42%')
    expect(card.getByRole('progressbar', { name: 'Registrations used' })).toHaveAttribute('aria-valuenow', '42')
    expect(field('Created')).toHaveTextContent(formatDateTime('2026-01-10T09:30:00.000Z'))
    expect(field('Last Updated')).toHaveTextContent(formatDateTime('2026-02-14T16:45:00.000Z'))
    expect(field('SCORM Expiry Date')).toHaveTextContent('2026-12-31')
    expect(field('Tags')).toHaveTextContent('safetyonboarding')
    expect(field('Notes')).toHaveTextContent('Renewal due in December.')
    await waitFor(() =>
      expect(requestsTo(log, '/api/logs/action').map((r) => r.body)).toContainEqual({
        action: 'DISPATCH_DETAILS_LOADED',
        details: { dispatchId: 'd-1', courseId: 'course-1' },
      }),
    )
  })

  it('falls back when names, cap, dates, tags and notes are missing', async () => {
    signInAs('internal')
    answerDispatch({
      courseTitle: '',
      destinationName: '',
      registrationCap: 0,
      expirationDate: null,
      created: null,
      updated: 'not a date',
      tags: [],
      notes: '',
    })
    renderApp('/dispatches/d-9')

    expect(await screen.findByRole('region', { name: /General Information/ })).toBeInTheDocument()
    expect(screen.getByRole('heading', { level: 1, name: 'Dispatch Details' })).toBeInTheDocument()
    expect(field('Client')).toHaveTextContent(/^Ccompany-1$/)
    expect(field('Course')).toHaveTextContent('course-1')
    expect(field('Registrations')).toHaveTextContent('42 / ∞ Unlimited')
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument()
    expect(field('SCORM Expiry Date')).toHaveTextContent('No expiry date')
    expect(field('Created')).toHaveTextContent('N/A')
    expect(field('Last Updated')).toHaveTextContent('N/A')
    expect(field('Tags')).toHaveTextContent('No tags')
    expect(field('Notes')).toHaveTextContent('No notes')
  })

  it('marks a disabled, overused dispatch', async () => {
    signInAs('internal')
    answerDispatch({ enabled: false, registrationCount: 12, registrationCap: 10 })
    renderApp('/dispatches/d-1')
    await screen.findByRole('region', { name: /General Information/ })
    expect(screen.getByText('Disabled')).toBeInTheDocument()
    expect(field('Registrations')).toHaveTextContent('12 / 10 120% Overused')
  })

  it.each(['sales', 'client'] as const)('shows no tags, notes or admin controls to %s', async (role) => {
    signInAs(role)
    renderApp('/dispatches/d-1')
    const card = await screen.findByRole('region', { name: /General Information/ })
    expect(within(card).queryByText('Tags')).not.toBeInTheDocument()
    expect(within(card).queryByText('Notes')).not.toBeInTheDocument()
    expect(screen.queryByRole('region', { name: 'Admin Controls' })).not.toBeInTheDocument()
  })

  it('shows no admin controls to internal users', async () => {
    signInAs('internal')
    renderApp('/dispatches/d-1')
    await screen.findByRole('region', { name: /General Information/ })
    expect(screen.queryByRole('button', { name: 'Disable Dispatch' })).not.toBeInTheDocument()
  })

  it('shows the error with Refresh Data, which reads Refreshing... and reloads', async () => {
    signInAs('admin')
    server.use(
      http.get(DETAIL, () => HttpResponse.json({ code: 'NOT_FOUND', message: 'Dispatch not found' }, { status: 404 })),
    )
    const { user } = renderApp('/dispatches/d-1')

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Error: Error fetching dispatch details: Dispatch not found',
    )
    expect(screen.getByRole('heading', { level: 1, name: 'Dispatch Details' })).toBeInTheDocument()
    expect(screen.queryByRole('region', { name: 'Completion Report' })).not.toBeInTheDocument()

    let release: () => void = () => {}
    const gate = new Promise<void>((resolve) => (release = resolve))
    server.use(
      http.get(DETAIL, async () => {
        await gate
        return HttpResponse.json(makeDispatch())
      }),
    )
    await user.click(screen.getByRole('button', { name: 'Refresh Data' }))
    expect(await screen.findByRole('button', { name: 'Refreshing...' })).toBeDisabled()
    release()
    expect(await screen.findByRole('heading', { level: 1, name: 'Workplace Safety Basics' })).toBeInTheDocument()
    expect(screen.getByRole('region', { name: 'Completion Report' })).toBeInTheDocument()
  })
})
