import { act, screen } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { tokenStorage } from '@/lib/token-storage'
import { makeSession, makeUser } from '@/testing/data-generators'
import { server } from '@/testing/mocks/server'
import { advance, pollUntil, preloadRoutes, renderApp } from '@/testing/test-utils'

const user = makeUser('admin')

/** A returning visitor whose browser kept only the refresh token. */
function storeRefreshTokenOnly() {
  tokenStorage.setSession(makeSession(user, 'old'))
  window.localStorage.removeItem('portal.accessToken')
}

/** The refresh endpoint answers with the given statuses in turn (200 = a new session). */
function refreshAnswers(...statuses: number[]) {
  const calls = { count: 0 }
  server.use(
    http.post('/api/auth/refresh-token', () => {
      const status = statuses[calls.count] ?? 503
      calls.count += 1
      return status === 200
        ? HttpResponse.json(makeSession(user, `new-${calls.count}`))
        : HttpResponse.json({ message: 'Service unavailable' }, { status })
    }),
  )
  return calls
}

describe('auth guard timing (docs/product-rules.md §2, §9)', () => {
  beforeAll(preloadRoutes)

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    vi.spyOn(console, 'warn').mockImplementation(() => {})
  })

  it('waits 500 ms after a failed start-up refresh, then tries once more', async () => {
    storeRefreshTokenOnly()
    const refresh = refreshAnswers(503, 200)
    const { router } = renderApp('/dashboard')

    await pollUntil(() => expect(refresh.count).toBe(1))
    await advance(0)
    expect(screen.getByRole('status')).toHaveTextContent('Loading...')
    await advance(499)
    expect(refresh.count).toBe(1)

    await advance(1)
    await pollUntil(() => expect(screen.getByRole('heading', { name: 'All Dispatches' })).toBeInTheDocument())
    expect(refresh.count).toBe(2)
    expect(router.state.location.pathname).toBe('/dashboard')
  })

  it('goes to /login when that try fails, and tries again only after 30 s', async () => {
    storeRefreshTokenOnly()
    const refresh = refreshAnswers(503, 503, 200)
    const { router } = renderApp('/dashboard')

    await pollUntil(() => expect(refresh.count).toBe(1))
    await advance(500)
    await pollUntil(() => expect(router.state.location.pathname).toBe('/login'))
    expect(refresh.count).toBe(2)

    // Within 30 s of the last try: straight back to /login, no refresh call.
    await advance(10_000)
    await act(() => router.navigate('/courses'))
    await advance(600)
    await pollUntil(() => expect(router.state.location.pathname).toBe('/login'))
    expect(refresh.count).toBe(2)

    // More than 30 s later the guard tries again, 500 ms after the visit.
    await advance(21_000)
    await act(() => router.navigate('/courses'))
    await advance(499)
    expect(refresh.count).toBe(2)
    await advance(1)
    await pollUntil(() => expect(screen.getByRole('heading', { name: 'Courses' })).toBeInTheDocument())
    expect(refresh.count).toBe(3)
  })
})
