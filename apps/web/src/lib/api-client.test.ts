import { http, HttpResponse, delay } from 'msw'
import { describe, expect, it, vi } from 'vitest'
import { makeSession, makeToken, makeUser, storeSession } from '@/testing/data-generators'
import { server } from '@/testing/mocks/server'
import { recordRequests, requestsTo } from '@/testing/test-utils'
import { api, refreshSession, fileNameOf } from './api-client'
import { ApiError, INVALID_SERVER_RESPONSE, errorMessage } from './api-error'
import { tokenStorage } from './token-storage'

const REFRESH = '/api/auth/refresh-token'
const user = makeUser('admin')

/** GET /api/things answers 200 only to `validToken`, 401 to anything else. */
function thingsAcceptOnly(validToken: () => string) {
  server.use(
    http.get('/api/things', ({ request }) =>
      request.headers.get('x-auth-token') === validToken()
        ? HttpResponse.json({ ok: true })
        : HttpResponse.json({ code: 'UNAUTHENTICATED', message: 'Token expired' }, { status: 401 }),
    ),
  )
}

describe('api client', () => {
  it('sends the access token and turns a non-2xx answer into an ApiError with the server message', async () => {
    const session = storeSession(makeSession(user))
    const log = recordRequests()
    server.use(
      http.post('/api/things', () =>
        HttpResponse.json({ code: 'CONFLICT', message: 'A user with this email already exists.' }, { status: 409 }),
      ),
    )

    const error = await api.post('/api/things', { name: 'x' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({ status: 409, code: 'CONFLICT', message: 'A user with this email already exists.' })
    expect(errorMessage(error, 'Failed')).toBe('A user with this email already exists.')
    await vi.waitFor(() => expect(requestsTo(log, '/api/things')).toHaveLength(1))
    const [request] = requestsTo(log, '/api/things')
    expect(request?.headers.get('x-auth-token')).toBe(session.accessToken)
    expect(request?.headers.get('content-type')).toBe('application/json')
    expect(request?.body).toEqual({ name: 'x' })
  })

  it('refreshes once for concurrent 401s and retries every call with the new token', async () => {
    storeSession(makeSession(user, 'stale'))
    const fresh = makeSession(user, 'fresh')
    let refreshCalls = 0
    server.use(
      http.post(REFRESH, async () => {
        refreshCalls += 1
        await delay(20)
        return HttpResponse.json(fresh)
      }),
    )
    thingsAcceptOnly(() => fresh.accessToken)
    const log = recordRequests()

    const results = await Promise.all([api.get('/api/things'), api.get('/api/things'), api.get('/api/things')])

    expect(results).toEqual([{ ok: true }, { ok: true }, { ok: true }])
    expect(refreshCalls).toBe(1)
    await vi.waitFor(() => expect(requestsTo(log, '/api/things')).toHaveLength(6))
    const retried = requestsTo(log, '/api/things').filter((r) => r.headers.get('x-auth-token') === fresh.accessToken)
    expect(retried).toHaveLength(3)
    // The refresh token is rotated: the new one is the one kept.
    expect(tokenStorage.getRefreshToken()).toBe(fresh.refreshToken)
    expect(tokenStorage.getAccessToken()).toBe(fresh.accessToken)
  })

  it('signs out (tokens and user cleared) when the refresh fails', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    storeSession(makeSession(user, 'stale'))
    let refreshCalls = 0
    server.use(
      http.post(REFRESH, () => {
        refreshCalls += 1
        return HttpResponse.json({ message: 'Session expired' }, { status: 401 })
      }),
    )
    thingsAcceptOnly(() => 'never')

    const outcomes = await Promise.allSettled([api.get('/api/things'), api.get('/api/things')])

    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected'])
    expect((outcomes[0] as PromiseRejectedResult).reason).toMatchObject({ status: 401 })
    expect(refreshCalls).toBe(1)
    expect(tokenStorage.read()).toEqual({ accessToken: null, refreshToken: null, user: null })
    expect(warn).toHaveBeenCalled()
  })

  it('refreshes before the call when under 5 minutes remain on the access token', async () => {
    storeSession({ ...makeSession(user, 'old'), accessToken: makeToken('access-old', 4 * 60) })
    const fresh = makeSession(user, 'fresh')
    const log = recordRequests()
    server.use(http.post(REFRESH, () => HttpResponse.json(fresh)))
    thingsAcceptOnly(() => fresh.accessToken)

    await expect(api.get('/api/things')).resolves.toEqual({ ok: true })

    await vi.waitFor(() => expect(log.map((r) => r.path)).toEqual([REFRESH, '/api/things']))
    expect(log[1]?.headers.get('x-auth-token')).toBe(fresh.accessToken)
  })

  it('does not refresh while more than 5 minutes remain', async () => {
    const session = storeSession({ ...makeSession(user), accessToken: makeToken('access-ok', 6 * 60) })
    const log = recordRequests()
    thingsAcceptOnly(() => session.accessToken)

    await expect(api.get('/api/things')).resolves.toEqual({ ok: true })
    await vi.waitFor(() => expect(log.map((r) => r.path)).toEqual(['/api/things']))
  })

  it('refuses a refresh answer lacking a token with "Invalid server response" and signs out', async () => {
    storeSession(makeSession(user, 'stale'))
    server.use(http.post(REFRESH, () => HttpResponse.json({ accessToken: makeToken('a'), user })))

    await expect(refreshSession()).rejects.toThrow(INVALID_SERVER_RESPONSE)
    expect(tokenStorage.getRefreshToken()).toBeNull()
  })

  it('keeps the tokens when the refresh fails for a network or server reason', async () => {
    const session = storeSession(makeSession(user, 'kept'))
    server.use(http.post(REFRESH, () => HttpResponse.json({ message: 'Not ready' }, { status: 503 })))

    await expect(refreshSession()).rejects.toMatchObject({ status: 503 })
    expect(tokenStorage.getRefreshToken()).toBe(session.refreshToken)
  })

  it('never refreshes or retries for public calls', async () => {
    const log = recordRequests()
    storeSession(makeSession(user))
    server.use(
      http.post('/api/auth/login', () => HttpResponse.json({ message: 'Invalid email or password.' }, { status: 401 })),
    )

    await expect(
      api.post('/api/auth/login', { email: 'a@b.c', password: 'x' }, { public: true }),
    ).rejects.toMatchObject({
      status: 401,
      message: 'Invalid email or password.',
    })
    await vi.waitFor(() => expect(log.map((r) => r.path)).toEqual(['/api/auth/login']))
    expect(log[0]?.headers.get('x-auth-token')).toBeNull()
  })
})

describe('fileNameOf (a download saved under the name the server gives it)', () => {
  it.each([
    [
      'attachment; filename="Beacon - Budgeting - completion report.xlsx"',
      'Beacon - Budgeting - completion report.xlsx',
    ],
    ['attachment; filename="fallback.csv"; filename*=UTF-8\'\'Caf%C3%A9%20-%20learners.csv', 'Café - learners.csv'],
    ['attachment; filename=plain.csv', 'plain.csv'],
    ['attachment', null],
    [null, null],
  ])('%j gives %j', (header, name) => {
    expect(fileNameOf(header)).toBe(name)
  })
})
