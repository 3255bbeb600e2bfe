import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { makeUser } from '@/testing/data-generators'
import { server } from '@/testing/mocks/server'
import { preloadRoutes, recordRequests, renderApp, requestsTo, signInAs } from '@/testing/test-utils'
import { USERS_CACHE_KEY } from '../api/get-users'

beforeAll(preloadRoutes)

/** The signed-in admin is user-admin, the first fixture row. */
const openSettings = async (path = '/settings') => {
  signInAs('admin', { id: 'user-admin' })
  const view = renderApp(path)
  await screen.findByRole('table', { name: 'Users' })
  return view
}
const rowOf = (email: string) => {
  const rows = within(screen.getByRole('table', { name: 'Users' })).getAllByRole('row')
  return within(rows.find((row) => row.textContent?.includes(email))!)
}

describe('users table (/settings)', () => {
  it('shows the product-rules columns and cells, and records SETTINGS_VIEWED', async () => {
    const log = recordRequests()
    await openSettings()
    expect(screen.getByRole('heading', { level: 1, name: 'Settings' })).toBeInTheDocument()
    expect(screen.getByRole('heading', { level: 2, name: 'User Management' })).toBeInTheDocument()
    const table = screen.getByRole('table', { name: 'Users' })
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['User', 'Role', 'Status', 'Client', 'Created', 'Last Login', 'Actions'])
    const client = rowOf('cleo@acme.test')
    // No username: the part of the email before @.
    expect(client.getByText('cleo')).toBeInTheDocument()
    expect(client.getByText('Client')).toBeInTheDocument()
    expect(client.getByText('Acme Learning')).toBeInTheDocument()
    expect(client.getByText('2026-01-05')).toBeInTheDocument()
    expect(client.getAllByRole('cell')[5]).toHaveTextContent('-')
    expect(rowOf('sales@example.com').getByText('Suspended')).toBeInTheDocument()
    expect(rowOf('sales@example.com').getByRole('button', { name: /^Activate/ })).toBeInTheDocument()
    await waitFor(() =>
      expect(requestsTo(log, '/api/logs/action').map((r) => (r.body as { action: string }).action)).toContain(
        'SETTINGS_VIEWED',
      ),
    )
  })

  it('disables Suspend and Delete on the admin’s own row with the product-rules titles', async () => {
    await openSettings()
    const own = rowOf('admin@example.com')
    expect(own.getByRole('button', { name: /^Suspend/ })).toBeDisabled()
    expect(own.getByRole('button', { name: /^Suspend/ })).toHaveAttribute('title', 'Cannot change own status')
    expect(own.getByRole('button', { name: /^Delete/ })).toBeDisabled()
    expect(own.getByRole('button', { name: /^Delete/ })).toHaveAttribute('title', 'Cannot delete self')
    expect(own.getByRole('button', { name: /^Edit/ })).toBeEnabled()
  })

  it('shows No users found when the list is empty', async () => {
    server.use(http.get('/api/users', () => HttpResponse.json([])))
    signInAs('admin')
    renderApp('/settings')
    expect(await screen.findByText('No users found')).toBeInTheDocument()
    expect(screen.getByText('Get started by creating a new user')).toBeInTheDocument()
  })

  it('falls back to the users cached at the last load, with the error banner', async () => {
    const first = await openSettings()
    expect(JSON.parse(window.localStorage.getItem(USERS_CACHE_KEY)!).users).toHaveLength(3)
    first.unmount()
    server.use(http.get('/api/users', () => HttpResponse.json({}, { status: 500 })))
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    renderApp('/settings')
    expect(await screen.findByText('Failed to fetch settings data')).toBeInTheDocument()
    expect(rowOf('cleo@acme.test').getByText('cleo')).toBeInTheDocument()
  })

  it('shows only the banner when loading fails with nothing cached', async () => {
    server.use(http.get('/api/users', () => HttpResponse.json({}, { status: 500 })))
    signInAs('admin')
    renderApp('/settings')
    expect(await screen.findByText('Failed to fetch settings data')).toBeInTheDocument()
    expect(screen.queryByRole('table')).not.toBeInTheDocument()
  })
})

describe('Suspend / Activate', () => {
  it('updates at once, ignores a second click within 50 ms, and sends one call', async () => {
    let release: () => void = () => {}
    const gate = new Promise<void>((resolve) => (release = resolve))
    server.use(
      http.put('/api/users/:id/status', async () => {
        await gate // the optimistic state stays on screen while the call is out
        return HttpResponse.json({ ...makeUser('client', { id: 'user-client' }), status: 'suspended', message: 'ok' })
      }),
    )
    const log = recordRequests()
    await openSettings()
    // The 50 ms guard reads Date.now(); on the fake clock it moves only when the test
    // says, so no real sleep stands in for "later".
    vi.useFakeTimers({ toFake: ['Date'] })
    const statusCalls = () => requestsTo(log, '/api/users/user-client/status')
    const toggle = rowOf('cleo@acme.test').getByRole('button', { name: /^Suspend/ })
    act(() => {
      fireEvent.click(toggle)
      fireEvent.click(toggle) // the same instant: a double click
    })
    await waitFor(() => expect(rowOf('cleo@acme.test').getByText('Suspended')).toBeInTheDocument())
    await waitFor(() => expect(statusCalls()).not.toHaveLength(0))
    vi.advanceTimersByTime(100)
    expect(statusCalls()).toHaveLength(1)
    expect(statusCalls()[0]!.body).toEqual({ status: 'suspended' })
    release()
    // Past the 50 ms guard a click counts again.
    fireEvent.click(rowOf('cleo@acme.test').getByRole('button', { name: /^(Activate|Suspend)/ }))
    await waitFor(() => expect(statusCalls()).toHaveLength(2))
  })

  it('rolls back and says Failed to update user status. when the server refuses', async () => {
    let release: () => void = () => {}
    const gate = new Promise<void>((resolve) => (release = resolve))
    server.use(
      http.put('/api/users/:id/status', async () => {
        await gate
        return HttpResponse.json({ message: 'nope' }, { status: 500 })
      }),
    )
    const { user } = await openSettings()
    await user.click(rowOf('cleo@acme.test').getByRole('button', { name: /^Suspend/ }))
    expect(rowOf('cleo@acme.test').getByText('Suspended')).toBeInTheDocument()
    release()
    expect(await screen.findByText('Failed to update user status.')).toBeInTheDocument()
    expect(rowOf('cleo@acme.test').getByText('Active')).toBeInTheDocument()
  })
})

describe('Delete', () => {
  it('asks for confirmation; Cancel deletes nothing, Delete calls the server', async () => {
    const log = recordRequests()
    const { user } = await openSettings()
    await user.click(rowOf('cleo@acme.test').getByRole('button', { name: /^Delete/ }))
    const dialog = screen.getByRole('alertdialog', { name: 'Delete user?' })
    expect(dialog).toHaveTextContent('cleo@acme.test')
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument()
    expect(requestsTo(log, '/api/users/user-client').filter((r) => r.method === 'DELETE')).toHaveLength(0)

    await user.click(rowOf('cleo@acme.test').getByRole('button', { name: /^Delete/ }))
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }))
    await waitFor(() =>
      expect(requestsTo(log, '/api/users/user-client').filter((r) => r.method === 'DELETE')).toHaveLength(1),
    )
  })

  it('says Failed to delete user. when the server refuses', async () => {
    server.use(http.delete('/api/users/:id', () => HttpResponse.json({}, { status: 500 })))
    const { user } = await openSettings()
    await user.click(rowOf('cleo@acme.test').getByRole('button', { name: /^Delete/ }))
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }))
    expect(await screen.findByText('Failed to delete user.')).toBeInTheDocument()
    expect(rowOf('cleo@acme.test').getByText('cleo')).toBeInTheDocument()
  })
})
