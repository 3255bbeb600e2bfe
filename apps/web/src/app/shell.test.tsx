import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { tokenStorage } from '@/lib/token-storage'
import { SUPPORT_EMAIL } from '@/testing/mocks/handlers/auth'
import { mainNav, recordRequests, renderApp, requestsTo, signInAs } from '@/testing/test-utils'

describe('app shell', () => {
  it('shows the product title, today’s long date, the user and the copyright year', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(new Date(2026, 10, 22, 10, 0))
    signInAs('client', { name: null, email: 'jane.doe@acme.test' })
    renderApp('/dashboard')

    expect(await screen.findByRole('heading', { name: 'Your Dispatches' })).toBeInTheDocument()
    const banner = screen.getByRole('banner')
    expect(within(banner).getByText('Dispatch Portal')).toBeInTheDocument()
    expect(within(banner).getByText('Sunday, November 22, 2026')).toBeInTheDocument()
    expect(screen.getByText('© 2026 Dispatch Portal. All rights reserved.')).toBeInTheDocument()
    // No name: derived from the email; the avatar shows the email's initial.
    expect(screen.getByText('Jane Doe')).toBeInTheDocument()
    expect(screen.getByText('jane.doe@acme.test')).toBeInTheDocument()
    expect(screen.getByText('J')).toBeInTheDocument()
  })

  it('marks the active nav item and offers a skip link to the content', async () => {
    signInAs('admin')
    renderApp('/courses')
    expect(await screen.findByRole('heading', { name: 'Courses' })).toBeInTheDocument()
    expect(mainNav().getByRole('link', { name: 'Courses' })).toHaveAttribute('aria-current', 'page')
    expect(mainNav().getByRole('link', { name: 'Dashboard' })).not.toHaveAttribute('aria-current')
    expect(screen.getByRole('link', { name: 'Skip to main content' })).toHaveAttribute('href', '#main-content')
    expect(screen.getByRole('main')).toHaveAttribute('id', 'main-content')
  })

  it('records HELP_BUTTON_CLICKED with a message when Need help? is clicked', async () => {
    signInAs('sales')
    const log = recordRequests()
    const { user } = renderApp('/dashboard')
    const help = await screen.findByRole('link', { name: 'Need help?' })
    expect(help).toHaveAttribute('href', `mailto:${SUPPORT_EMAIL}`)

    // jsdom cannot follow mailto: links; the app's click handler still runs first.
    help.addEventListener('click', (event) => event.preventDefault())
    await user.click(help)

    const helpEvents = () =>
      requestsTo(log, '/api/logs/action').filter((r) => (r.body as { action: string }).action === 'HELP_BUTTON_CLICKED')
    await waitFor(() => expect(helpEvents()).toHaveLength(1))
    const body = helpEvents()[0]?.body as { action: string; details: string }
    expect(body.action).toBe('HELP_BUTTON_CLICKED')
    expect(body.details).toMatch(/Need help\?/)
  })

  it('logs out: revokes the refresh token, clears the session and shows /login', async () => {
    signInAs('internal')
    const refreshToken = tokenStorage.getRefreshToken()
    const log = recordRequests()
    const { user, router } = renderApp('/dashboard')

    await user.click(await screen.findByRole('button', { name: 'Log out' }))

    expect(await screen.findByRole('heading', { name: 'Welcome Back' })).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/login')
    expect(tokenStorage.read()).toEqual({ accessToken: null, refreshToken: null, user: null })
    await waitFor(() => expect(requestsTo(log, '/api/auth/revoke-token')).toHaveLength(1))
    expect(requestsTo(log, '/api/auth/revoke-token')[0]?.body).toEqual({ refreshToken })
  })

  it('opens the sidebar from the menu button on small screens and closes it with Escape', async () => {
    signInAs('admin')
    const { user } = renderApp('/dashboard')
    const menu = await screen.findByRole('button', { name: 'Menu' })
    expect(menu).toHaveAttribute('aria-expanded', 'false')

    await user.click(menu)
    expect(menu).toHaveAttribute('aria-expanded', 'true')
    expect(document.getElementById(menu.getAttribute('aria-controls') ?? '')).toContainElement(
      screen.getByRole('navigation', { name: 'Main' }),
    )

    fireEvent.keyDown(document, { key: 'Escape' })
    expect(menu).toHaveAttribute('aria-expanded', 'false')
    expect(menu).toHaveFocus()
  })
})
