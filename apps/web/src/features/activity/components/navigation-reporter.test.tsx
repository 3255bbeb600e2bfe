import { act, screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { recordRequests, renderApp, requestsTo, signInAs } from '@/testing/test-utils'

const NAVIGATION = '/api/logs/navigation'

describe('navigation reporting', () => {
  it('posts the pathname once per path change for a signed-in user', async () => {
    signInAs('admin')
    const log = recordRequests()
    const { user, router } = renderApp('/dashboard')

    await waitFor(() => expect(requestsTo(log, NAVIGATION).map((r) => r.body)).toEqual([{ pathname: '/dashboard' }]))

    await user.click(await screen.findByRole('link', { name: 'Courses' }))
    await waitFor(() =>
      expect(requestsTo(log, NAVIGATION).map((r) => r.body)).toEqual([
        { pathname: '/dashboard' },
        { pathname: '/courses' },
      ]),
    )

    // A query string alone is not a path change.
    await act(() => router.navigate('/courses?page=2'))
    await screen.findByRole('heading', { name: 'Courses' })
    expect(requestsTo(log, NAVIGATION)).toHaveLength(2)
  })

  it('reports nothing for a signed-out visitor on /login', async () => {
    const log = recordRequests()
    renderApp('/login')
    await screen.findByRole('heading', { name: 'Welcome Back' })
    await waitFor(() => expect(log.map((r) => r.path)).toContain('/api/auth/config'))
    expect(requestsTo(log, NAVIGATION)).toHaveLength(0)
  })
})
