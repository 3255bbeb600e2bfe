import { ROLES, type Role } from '@portal/shared'
import { screen } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it, vi } from 'vitest'
import { tokenStorage } from '@/lib/token-storage'
import { makeSession, makeUser } from '@/testing/data-generators'
import { authConfig } from '@/testing/mocks/handlers/auth'
import { server } from '@/testing/mocks/server'
import { advance, navLinkNames, pollUntil, preloadRoutes, renderApp, signInAs } from '@/testing/test-utils'

const EXPECTED_NAV: Record<Role, string[]> = {
  admin: [
    'Dashboard',
    'Courses',
    'Course Requests',
    'Learners',
    'Statements',
    'Companies',
    'Logs',
    'API keys',
    'Webhooks',
    'Settings',
    'Jobs',
  ],
  sales: ['Dashboard', 'Courses', 'Course Requests', 'Learners', 'Statements', 'Companies'],
  internal: ['Dashboard', 'Courses', 'Learners', 'Statements'],
  client: ['Dashboard', 'Courses', 'Course Requests', 'Learners', 'Statements', 'API keys', 'Webhooks'],
}

async function fillAndSubmit(user: ReturnType<typeof renderApp>['user']) {
  await user.type(await screen.findByLabelText('Email'), 'someone@example.com')
  await user.type(screen.getByLabelText('Password'), 'correct horse battery staple')
  await user.click(screen.getByRole('button', { name: 'Sign in' }))
}

describe('login screen', () => {
  it('shows the product-rules texts, fields and marketing points', async () => {
    renderApp('/login')
    expect(await screen.findByRole('heading', { name: 'Welcome Back' })).toBeInTheDocument()
    expect(screen.getByText('Sign in to your account to continue.')).toBeInTheDocument()
    const email = screen.getByLabelText('Email')
    expect(email).toHaveAttribute('type', 'email')
    expect(email).toBeRequired()
    expect(email).toHaveAttribute('placeholder', 'Enter your email')
    const password = screen.getByLabelText('Password')
    expect(password).toBeRequired()
    expect(password).toHaveAttribute('placeholder', 'Enter your password')
    expect(screen.getByText('Manage courses with ease')).toBeInTheDocument()
    expect(screen.getByText('Track learner progress')).toBeInTheDocument()
    expect(screen.getByText(/contact your account manager/i)).toBeInTheDocument()
    expect(screen.queryByRole('heading', { name: 'Demo accounts' })).not.toBeInTheDocument()
  })

  it.each(ROLES)('signs a %s in, goes to /dashboard and shows that role’s nav items', async (role) => {
    const account = makeUser(role)
    const session = makeSession(account, 'login')
    server.use(
      http.post('/api/auth/login', () => HttpResponse.json(session)),
      http.get('/api/auth/me', () => HttpResponse.json(account)),
    )
    const { user, router } = renderApp('/login')
    await fillAndSubmit(user)

    const title = role === 'client' ? 'Your Dispatches' : 'All Dispatches'
    expect(await screen.findByRole('heading', { name: title })).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/dashboard')
    expect(await navLinkNames()).toEqual(EXPECTED_NAV[role])
    expect(tokenStorage.getRefreshToken()).toBe(session.refreshToken)
  })

  it('shows the server message in the alert banner on a wrong password', async () => {
    server.use(
      http.post('/api/auth/login', () =>
        HttpResponse.json({ code: 'UNAUTHENTICATED', message: 'Invalid email or password.' }, { status: 401 }),
      ),
    )
    const { user, router } = renderApp('/login')
    await fillAndSubmit(user)
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email or password.')
    expect(router.state.location.pathname).toBe('/login')
    expect(tokenStorage.getAccessToken()).toBeNull()
  })

  it('falls back to "Login failed" when the server sends no message', async () => {
    server.use(http.post('/api/auth/login', () => new HttpResponse(null, { status: 500 })))
    const { user } = renderApp('/login')
    await fillAndSubmit(user)
    expect(await screen.findByRole('alert')).toHaveTextContent('Login failed')
  })

  it('refuses a response lacking tokens with "Invalid server response"', async () => {
    server.use(http.post('/api/auth/login', () => HttpResponse.json({ user: makeUser('admin') })))
    const { user } = renderApp('/login')
    await fillAndSubmit(user)
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid server response')
    expect(tokenStorage.getUser()).toBeNull()
  })

  it('reads "Signing in..." and is disabled while the login is pending', async () => {
    let answer: (() => void) | undefined
    const session = makeSession(makeUser('admin'))
    server.use(
      http.post('/api/auth/login', async () => {
        await new Promise<void>((resolve) => (answer = resolve))
        return HttpResponse.json(session)
      }),
      http.get('/api/auth/me', () => HttpResponse.json(session.user)),
    )
    const { user } = renderApp('/login')
    await fillAndSubmit(user)

    const button = await screen.findByRole('button', { name: 'Signing in...' })
    expect(button).toBeDisabled()
    answer?.()
    expect(await screen.findByRole('heading', { name: 'All Dispatches' })).toBeInTheDocument()
  })

  it('lists the demo accounts and password in demo mode only', async () => {
    server.use(
      http.get('/api/auth/config', () =>
        HttpResponse.json({
          ...authConfig,
          demoMode: true,
          demoAccounts: [
            { email: 'admin@demo.test', role: 'admin' },
            { email: 'client@demo.test', role: 'client' },
          ],
          demoPassword: 'demo-password-123',
        }),
      ),
    )
    renderApp('/login')
    expect(await screen.findByRole('heading', { name: 'Demo accounts' })).toBeInTheDocument()
    expect(screen.getByText('admin@demo.test')).toBeInTheDocument()
    expect(screen.getByText('client@demo.test')).toBeInTheDocument()
    expect(screen.getByText('demo-password-123')).toBeInTheDocument()
  })

  it('sends a signed-in user from /login to /dashboard after 100 ms', async () => {
    await preloadRoutes()
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    signInAs('sales')
    const { router } = renderApp('/login')
    await pollUntil(() => expect(screen.getByText('Redirecting to your dashboard...')).toBeInTheDocument())

    await advance(99)
    expect(router.state.location.pathname).toBe('/login')
    await advance(1)
    await pollUntil(() => expect(screen.getByRole('heading', { name: 'All Dispatches' })).toBeInTheDocument())
    expect(router.state.location.pathname).toBe('/dashboard')
  })
})
