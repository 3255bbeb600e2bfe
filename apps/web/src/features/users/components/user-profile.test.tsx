import { screen, waitFor, within } from '@testing-library/react'
import { beforeAll, describe, expect, it } from 'vitest'
import { preloadRoutes, recordRequests, renderApp, requestsTo, signInAs } from '@/testing/test-utils'

beforeAll(preloadRoutes)

describe('user page (/admin/users/{id})', () => {
  it('shows the profile, status, company, last login and recent activity, with Edit and Suspend', async () => {
    const log = recordRequests()
    signInAs('admin', { id: 'user-admin' })
    const { user } = renderApp('/admin/users/user-client')
    expect(await screen.findByRole('heading', { level: 1, name: 'cleo' })).toBeInTheDocument()
    const details = within(screen.getByRole('heading', { level: 1 }).closest('div')!.parentElement!)
    expect(details.getByText('cleo@acme.test')).toBeInTheDocument()
    expect(details.getByText('Acme Learning')).toBeInTheDocument()
    expect(details.getByText('Active')).toBeInTheDocument()
    expect(details.getByText('2026-01-05')).toBeInTheDocument()
    const activity = within(screen.getByRole('region', { name: 'Recent Activity' }))
    expect(await activity.findByText('LOGIN_SUCCESS')).toBeInTheDocument()
    expect(activity.getByText('{"message":"Signed in"}')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Edit' })).toHaveAttribute('href', '/settings?edit=user-client')
    await user.click(screen.getByRole('button', { name: 'Suspend' }))
    await waitFor(() => expect(requestsTo(log, '/api/users/user-client/status')).toHaveLength(1))
    expect(requestsTo(log, '/api/users/user-client/status')[0]!.body).toEqual({ status: 'suspended' })
  })

  it('keeps an admin from suspending themselves', async () => {
    signInAs('admin', { id: 'user-admin' })
    renderApp('/admin/users/user-admin')
    const button = await screen.findByRole('button', { name: 'Suspend' })
    expect(button).toBeDisabled()
    expect(button).toHaveAttribute('title', 'Cannot change own status')
  })

  it('says User not found for an unknown id', async () => {
    signInAs('admin')
    renderApp('/admin/users/nobody')
    expect(await screen.findByText('User not found')).toBeInTheDocument()
  })

  it('shows Access Denied to a non-admin', async () => {
    signInAs('sales')
    renderApp('/admin/users/user-client')
    expect(await screen.findByRole('heading', { name: 'Access Denied' })).toBeInTheDocument()
  })
})
