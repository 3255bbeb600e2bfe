import type { Role } from '@portal/shared'
import { QueryClient } from '@tanstack/react-query'
import { act, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { RouterProvider, createMemoryRouter } from 'react-router'
import { expect, onTestFinished, vi } from 'vitest'
import { AppProvider } from '@/app/provider'
import { createRoutes, routeModules } from '@/app/router'
import { queryConfig } from '@/lib/query-client'
import type { User } from '@/types/api'
import { makeSession, makeUser, storeSession } from './data-generators'
import { server } from './mocks/server'

export function createTestQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: { ...queryConfig, queries: { ...queryConfig.queries, retry: false } },
  })
}

/** The whole app (providers, real route table) at `path`, as a user would open it. */
export function renderApp(path: string) {
  const router = createMemoryRouter(createRoutes(), { initialEntries: [path] })
  const user = userEvent.setup({
    advanceTimers: (ms) => (vi.isFakeTimers() ? vi.advanceTimersByTime(ms) : undefined),
  })
  const view = render(
    <AppProvider queryClient={createTestQueryClient()}>
      <RouterProvider router={router} />
    </AppProvider>,
  )
  return { ...view, router, user }
}

/** A returning user with a stored session; GET /api/auth/me answers with that user. */
export function signInAs(role: Role, overrides: Partial<User> = {}): User {
  const user = makeUser(role, overrides)
  storeSession(makeSession(user))
  server.use(http.get('/api/auth/me', () => HttpResponse.json(user)))
  return user
}

export type RecordedRequest = { method: string; path: string; headers: Headers; body: unknown }

/** Every request the app sends during the test, with its parsed JSON body. */
export function recordRequests(): RecordedRequest[] {
  const log: RecordedRequest[] = []
  const listener = ({ request }: { request: Request }) => {
    const entry = { method: request.method, path: new URL(request.url).pathname, headers: request.headers }
    void request
      .clone()
      .text()
      .then((text) => void log.push({ ...entry, body: text ? (JSON.parse(text) as unknown) : undefined }))
  }
  server.events.on('request:start', listener)
  onTestFinished(() => server.events.removeListener('request:start', listener))
  return log
}

export const requestsTo = (log: RecordedRequest[], path: string) => log.filter((r) => r.path === path)

export function mainNav() {
  return within(screen.getByRole('navigation', { name: 'Main' }))
}

export async function navLinkNames(): Promise<string[]> {
  await waitFor(() => expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument())
  return mainNav()
    .getAllByRole('link')
    .map((link) => link.textContent ?? '')
}

/**
 * waitFor for tests that fake setTimeout: Testing Library's async helpers finish with a
 * setTimeout(0) of their own, which a faked clock never fires. This polls on setInterval.
 */
export async function pollUntil(check: () => void, timeoutMs = 2000): Promise<void> {
  const started = performance.now()
  for (;;) {
    try {
      check()
      return
    } catch (error) {
      if (performance.now() - started > timeoutMs) throw error
    }
    await act(
      () =>
        new Promise<void>((resolve) => {
          const id = setInterval(() => {
            clearInterval(id)
            resolve()
          }, 5)
        }),
    )
  }
}

/** Moves a faked clock forward and lets React finish what the timers started. */
export async function advance(ms: number): Promise<void> {
  await act(() => vi.advanceTimersByTimeAsync(ms))
}

/**
 * Loads every lazy route module up front. Call it before faking timers: the test runner's
 * module loading does not finish while setTimeout is faked.
 */
export async function preloadRoutes(): Promise<void> {
  await Promise.all(Object.values(routeModules).map((load) => load()))
}
