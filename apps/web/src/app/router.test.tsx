import { screen, waitFor } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { tokenStorage } from '@/lib/token-storage'
import { makeSession, makeUser, storeSession } from '@/testing/data-generators'
import { server } from '@/testing/mocks/server'
import { renderApp, signInAs } from '@/testing/test-utils'

const heading = (name: string) => screen.findByRole('heading', { name })

describe('routes and access', () => {
  it('sends an unauthenticated visitor of a protected route to /login', async () => {
    const { router } = renderApp('/courses')
    expect(await heading('Welcome Back')).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/login')
  })

  it('redirects / to /dashboard for a signed-in user', async () => {
    signInAs('client')
    const { router } = renderApp('/')
    expect(await heading('Your Dispatches')).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/dashboard')
  })

  it('restores a session from the refresh token alone at start', async () => {
    const user = makeUser('internal')
    const session = makeSession(user, 'restored')
    tokenStorage.setSession(makeSession(user))
    window.localStorage.removeItem('portal.accessToken')
    server.use(http.post('/api/auth/refresh-token', () => HttpResponse.json(session)))

    renderApp('/courses')
    expect(await heading('Courses')).toBeInTheDocument()
    expect(tokenStorage.getAccessToken()).toBe(session.accessToken)
  })

  it('shows the Loading... spinner while the user is loaded', async () => {
    let answer: (() => void) | undefined
    const user = makeUser('admin')
    storeSession(makeSession(user))
    server.use(
      http.get('/api/auth/me', async () => {
        await new Promise<void>((resolve) => (answer = resolve))
        return HttpResponse.json(user)
      }),
    )
    renderApp('/dashboard')
    expect(await screen.findByRole('status')).toHaveTextContent('Loading...')
    answer?.()
    expect(await heading('All Dispatches')).toBeInTheDocument()
  })

  it.each(['/settings', '/logs'])('redirects a non-admin from %s to /dashboard', async (path) => {
    signInAs('sales')
    const { router } = renderApp(path)
    expect(await heading('All Dispatches')).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/dashboard')
  })

  it('lets an admin open /settings and /logs', async () => {
    signInAs('admin')
    const { router } = renderApp('/settings')
    expect(await heading('Settings')).toBeInTheDocument()
    await router.navigate('/logs')
    expect(await heading('Activity Logs')).toBeInTheDocument()
  })

  it.each([
    ['/admin/companies', 'internal'],
    ['/admin/companies', 'client'],
    ['/admin/course-requests', 'internal'],
    ['/admin/course-requests', 'client'],
  ] as const)('shows Access Denied on %s to a %s user', async (path, role) => {
    signInAs(role)
    renderApp(path)
    expect(await heading('Access Denied')).toBeInTheDocument()
    expect(screen.getByText("You don't have permission to view this page.")).toBeInTheDocument()
  })

  it.each(['sales', 'admin'] as const)('lets a %s user see Companies and Course Requests', async (role) => {
    signInAs(role)
    const { router } = renderApp('/admin/companies')
    expect(await heading('Companies')).toBeInTheDocument()
    await router.navigate('/admin/course-requests')
    expect(await heading('Course Requests')).toBeInTheDocument()
  })

  it('gives every protected screen its title', async () => {
    signInAs('admin')
    const { router } = renderApp('/dispatches/d-1')
    const screens: Array<[string, string]> = [
      ['/dispatches/d-1', 'Dispatch Details'],
      ['/courses/c-1', 'Course Details'],
      ['/course-requests', 'My Course Requests'],
      ['/admin/companies/co-1', 'Acme Learning'], // The company's name (msw fixture)
      ['/admin/users/u-1', 'User Details'], // Unknown user, the page's own title
    ]
    for (const [path, title] of screens) {
      await router.navigate(path)
      expect(await heading(title)).toBeInTheDocument()
    }
  })

  it('shows the 404 page with a link home for any other path', async () => {
    const { user, router } = renderApp('/no/such/page')
    expect(await heading('Page not found')).toBeInTheDocument()
    await user.click(screen.getByRole('link', { name: 'Go back to home' }))
    // Home is protected: a signed-out visitor ends on the login screen.
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'))
  })
})
