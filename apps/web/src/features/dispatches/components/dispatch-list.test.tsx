import type { DispatchSummary } from '@portal/shared'
import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { makeDispatchList } from '@/testing/mocks/handlers/dispatches'
import { server } from '@/testing/mocks/server'
import { recordRequests, renderApp, requestsTo, signInAs, preloadRoutes } from '@/testing/test-utils'

const LIST = '/api/dispatches'

function answerList(overrides: Parameters<typeof makeDispatchList>[1]) {
  server.use(http.get(LIST, ({ request }) => HttpResponse.json(makeDispatchList(request, overrides))))
}

const card = (name: string) => within(screen.getByRole('region', { name }))
const actionBodies = (log: ReturnType<typeof recordRequests>) =>
  requestsTo(log, '/api/logs/action').map((r) => r.body as { action: string; details?: Record<string, unknown> })

afterEach(() => {
  window.innerWidth = 1024
})

// The first visit compiles the lazy route modules, which can outlast findBy's 1 s timeout.
beforeAll(preloadRoutes)

describe('dispatch list (/dashboard)', () => {
  it.each([
    ['client', 'Your Dispatches'],
    ['admin', 'All Dispatches'],
    ['internal', 'All Dispatches'],
    ['sales', 'All Dispatches'],
  ] as const)('titles the screen for a %s: %s', async (role, title) => {
    signInAs(role)
    renderApp('/dashboard')
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument()
  })

  it('shows a skeleton first, then the four summary cards and records DASHBOARD_VIEWED', async () => {
    signInAs('admin')
    const log = recordRequests()
    let release: () => void = () => {}
    const gate = new Promise<void>((resolve) => (release = resolve))
    server.use(
      http.get(LIST, async ({ request }) => {
        await gate
        return HttpResponse.json(makeDispatchList(request))
      }),
    )
    renderApp('/dashboard')

    expect(await screen.findByText('Loading dispatches...')).toBeInTheDocument()
    expect(screen.queryByRole('region', { name: 'Total Dispatches' })).not.toBeInTheDocument()
    release()

    expect(await screen.findByRole('region', { name: 'Total Dispatches' })).toHaveTextContent('3')
    expect(card('Active Dispatches').getByText('2')).toBeInTheDocument()
    expect(card('Registrations').getByText('1,234')).toBeInTheDocument()
    expect(card('License Usage').getByText('60%')).toBeInTheDocument()
    expect(card('License Usage').getByText('60 of 100 licenses used')).toBeInTheDocument()
    expect(screen.queryByText('Loading dispatches...')).not.toBeInTheDocument()
    await waitFor(() => expect(actionBodies(log).map((b) => b.action)).toContain('DASHBOARD_VIEWED'))
  })

  it.each([
    [70, 'bg-green-600'],
    [71, 'bg-yellow-500'],
    [90, 'bg-yellow-500'],
    [91, 'bg-red-600'],
    [100, 'bg-red-600'],
  ])('colours the license bar at %i percent with %s, without Overused', async (usagePercent, colour) => {
    signInAs('admin')
    answerList({ summary: { usagePercent } })
    renderApp('/dashboard')
    const bar = await screen.findByRole('progressbar', { name: 'License usage' })
    expect(bar).toHaveAttribute('aria-valuetext', `${usagePercent}%`)
    expect(bar.firstElementChild).toHaveClass(colour)
    expect(card('License Usage').queryByText('Overused')).not.toBeInTheDocument()
  })

  it('marks usage above 100 % as Overused and counts unlimited dispatches apart', async () => {
    signInAs('admin')
    answerList({ summary: { usagePercent: 101, cappedRegistrations: 101, unlimitedActive: 4 } })
    renderApp('/dashboard')
    const bar = await screen.findByRole('progressbar', { name: 'License usage' })
    expect(bar.firstElementChild).toHaveClass('bg-red-600')
    expect(bar).toHaveAttribute('aria-valuenow', '100')
    expect(card('License Usage').getByText('Overused')).toBeInTheDocument()
    expect(card('License Usage').getByText('Unlimited active licenses:')).toHaveTextContent(
      'Unlimited active licenses: 4',
    )
  })

  it.each<[string, Partial<DispatchSummary>, string | null]>([
    ['differ', { registrations: 1500, activeRegistrations: 1200 }, 'Historical: 1,500 / Active: 1,200'],
    ['match', { registrations: 1500, activeRegistrations: 1500 }, 'Active registrations: 1,500'],
  ])('shows staff historical and active registrations when they %s', async (_, summary, text) => {
    signInAs('sales')
    answerList({ summary })
    renderApp('/dashboard')
    await screen.findByRole('region', { name: 'License Usage' })
    expect(
      card('License Usage')
        .getByText(/Active/)
        .closest('p'),
    ).toHaveTextContent(text!)
  })

  it('shows no active registration count to a client', async () => {
    signInAs('client')
    answerList({ summary: { activeRegistrations: 10 } })
    renderApp('/dashboard')
    await screen.findByRole('region', { name: 'License Usage' })
    expect(card('License Usage').queryByText(/Active/)).not.toBeInTheDocument()
  })

  it.each(['admin', 'internal', 'sales'] as const)('shows the Client column to %s', async (role) => {
    signInAs(role)
    renderApp('/dashboard')
    const table = await screen.findByRole('table', { name: 'Dispatches' })
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((th) => th.textContent)
    // Staff who may edit dispatches (admin) get a selection column for bulk actions first.
    const select = role === 'admin' ? ['Select'] : []
    expect(headers).toEqual([...select, 'Client', 'Course', 'Status', 'Registrations', 'Actions'])
    expect(within(table).getByRole('cell', { name: 'Globex Training' })).toBeInTheDocument()
  })

  it('hides the Client column from a client and shows registrations as count / cap or ∞', async () => {
    signInAs('client')
    renderApp('/dashboard')
    const table = await screen.findByRole('table', { name: 'Dispatches' })
    expect(within(table).queryByRole('columnheader', { name: /Client/ })).not.toBeInTheDocument()
    const rows = within(table).getAllByRole('row').slice(1)
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      ),
    ).toEqual([
      ['Workplace Safety Basics', 'Enabled', '42 / 100', expect.stringContaining('View Details')],
      ['Data Protection Essentials', 'Disabled', '7 / ∞', expect.stringContaining('View Details')],
      ['Leadership Foundations', 'Enabled', '18 / 20', expect.stringContaining('View Details')],
    ])
    expect(within(rows[1]!).getByRole('link', { name: /View Details/ })).toHaveAttribute('href', '/dispatches/d-2')
  })
})
