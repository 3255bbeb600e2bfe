import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { beforeAll, describe, expect, it } from 'vitest'
import { server } from '@/testing/mocks/server'
import { preloadRoutes, recordRequests, renderApp, requestsTo, signInAs } from '@/testing/test-utils'

beforeAll(preloadRoutes)

describe('notification bell', () => {
  it('shows the unread count, opens a labelled list with the keyboard, and Escape returns focus', async () => {
    signInAs('client')
    renderApp('/dashboard')
    const bell = await screen.findByRole('button', { name: 'Notifications, 1 unread' })
    expect(bell).toHaveAttribute('aria-expanded', 'false')
    bell.focus()
    await userEvent.keyboard('{Enter}')
    expect(bell).toHaveAttribute('aria-expanded', 'true')
    const panel = screen.getByRole('region', { name: 'Notifications' })
    const list = within(panel).getByRole('list', { name: 'Notifications' })
    const items = within(list).getAllByRole('listitem')
    expect(items.map((i) => i.textContent)).toEqual([
      expect.stringContaining(
        'Unread: 90% of licenses used (threshold 90%): Fire Safety (Acme Learning) uses 9 of 10 licenses',
      ),
      expect.stringContaining('Expires within 7 days: Chemistry (Acme Learning)'),
    ])
    expect(within(items[0]!).getByRole('link', { name: 'View dispatch' })).toHaveAttribute(
      'href',
      '/dispatches/dispatch-1',
    )
    await userEvent.keyboard('{Escape}')
    expect(bell).toHaveAttribute('aria-expanded', 'false')
    expect(screen.queryByRole('region', { name: 'Notifications' })).toBeNull()
    expect(bell).toHaveFocus()
  })

  it('marks one read and all read through the API', async () => {
    const log = recordRequests()
    signInAs('admin')
    renderApp('/dashboard')
    await userEvent.click(await screen.findByRole('button', { name: 'Notifications, 1 unread' }))
    await userEvent.click(screen.getByRole('button', { name: 'Mark read' }))
    await userEvent.click(screen.getByRole('button', { name: 'Mark all read' }))
    await waitFor(() => expect(requestsTo(log, '/api/notifications/read-all')).toHaveLength(1))
    expect(requestsTo(log, '/api/notifications/1/read')).toHaveLength(1)
  })
})

describe('dashboard badges', () => {
  it('marks the flagged rows "Near cap" and "Expires soon"', async () => {
    server.use(
      http.get('*/api/notifications/dispatch-flags', ({ request }) => {
        const ids = new URL(request.url).searchParams.getAll('ids')
        return HttpResponse.json({ nearCap: ids.slice(0, 1), expiresSoon: ids.slice(1, 2) })
      }),
    )
    signInAs('admin')
    renderApp('/dashboard')
    expect(await screen.findByText('Near cap')).toBeInTheDocument()
    expect(screen.getByText('Expires soon')).toBeInTheDocument()
  })
})

describe('Profile page', () => {
  it('every role saves its mail preferences', async () => {
    const log = recordRequests()
    signInAs('sales')
    renderApp('/profile')
    const digest = await screen.findByRole('switch', { name: 'Weekly digest' })
    expect(screen.getByRole('switch', { name: 'Alert mails' })).toHaveAttribute('aria-checked', 'true')
    await userEvent.click(digest)
    await userEvent.selectOptions(screen.getByLabelText('Scheduled report'), 'monthly')
    await userEvent.click(screen.getByRole('button', { name: 'Save preferences' }))
    expect(await screen.findByText('Preferences saved.')).toBeInTheDocument()
    expect(requestsTo(log, '/api/profile/preferences').find((r) => r.method === 'PUT')?.body).toEqual({
      alertMails: true,
      weeklyDigest: true,
      timeZone: 'UTC',
      reportFrequency: 'monthly',
      reportHour: 8,
    })
  })
})

describe('thresholds', () => {
  it('an admin edits the global thresholds in Settings; a bad value is explained, not sent', async () => {
    const log = recordRequests()
    signInAs('admin')
    renderApp('/settings')
    const usage = await screen.findByLabelText('License usage thresholds (% of cap)')
    await userEvent.clear(usage)
    await userEvent.type(usage, '75, abc')
    await userEvent.click(screen.getByRole('button', { name: 'Apply thresholds' }))
    expect(await screen.findByText('License usage: "abc" is not a whole number.')).toBeInTheDocument()
    await userEvent.clear(usage)
    await userEvent.type(usage, '95, 75')
    await userEvent.click(screen.getByRole('button', { name: 'Apply thresholds' }))
    await waitFor(() =>
      expect(requestsTo(log, '/api/admin/alert-settings').find((r) => r.method === 'PUT')?.body).toEqual({
        usageThresholds: [95, 75],
        expiryDays: [0, 7, 30],
      }),
    )
    expect(screen.getByRole('link', { name: 'Mail outbox' })).toHaveAttribute('href', '/admin/outbox')
  })

  it('an empty list is saved only once the admin confirms that those alerts stop', async () => {
    let stored = { usageThresholds: [80, 90, 100], expiryDays: [0, 7, 30] }
    server.use(
      http.get('*/api/admin/alert-settings', () => HttpResponse.json(stored)),
      http.put('*/api/admin/alert-settings', async ({ request }) =>
        HttpResponse.json((stored = (await request.json()) as typeof stored)),
      ),
    )
    const log = recordRequests()
    signInAs('admin')
    renderApp('/settings')
    const usage = await screen.findByLabelText('License usage thresholds (% of cap)')
    await userEvent.clear(usage)
    await userEvent.click(screen.getByRole('button', { name: 'Apply thresholds' }))
    const dialog = await screen.findByRole('alertdialog', { name: 'Turn these alerts off?' })
    expect(dialog).toHaveTextContent('No usage alerts will be raised.')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    expect(requestsTo(log, '/api/admin/alert-settings').filter((r) => r.method === 'PUT')).toEqual([])
    await userEvent.click(screen.getByRole('button', { name: 'Apply thresholds' }))
    await userEvent.click(await screen.findByRole('button', { name: 'Save without these alerts' }))
    await waitFor(() =>
      expect(requestsTo(log, '/api/admin/alert-settings').find((r) => r.method === 'PUT')?.body).toEqual({
        usageThresholds: [],
        expiryDays: [0, 7, 30],
      }),
    )
    expect(await screen.findByText('No usage alerts will be raised.')).toBeInTheDocument()
  })

  it('a value outside the range the server accepts is explained, not sent', async () => {
    const log = recordRequests()
    signInAs('admin')
    renderApp('/settings')
    const usage = await screen.findByLabelText('License usage thresholds (% of cap)')
    await userEvent.clear(usage)
    await userEvent.type(usage, '80, 1001')
    await userEvent.click(screen.getByRole('button', { name: 'Apply thresholds' }))
    expect(await screen.findByText('License usage: each value must be between 1 and 1000.')).toBeInTheDocument()
    expect(requestsTo(log, '/api/admin/alert-settings').some((r) => r.method === 'PUT')).toBe(false)
  })

  it('a company detail shows its thresholds to admins only', async () => {
    signInAs('admin')
    renderApp('/admin/companies/company-1')
    expect(await screen.findByRole('heading', { name: 'Alert thresholds' })).toBeInTheDocument()
    expect(await screen.findByText('This company uses the global thresholds.')).toBeInTheDocument()
  })

  it('sales see the company without the thresholds', async () => {
    signInAs('sales')
    renderApp('/admin/companies/company-1')
    await screen.findByRole('heading', { level: 1, name: 'Acme Learning' })
    expect(screen.queryByRole('heading', { name: 'Alert thresholds' })).toBeNull()
  })
})
