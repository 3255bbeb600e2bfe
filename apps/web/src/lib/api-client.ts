import type { SessionResponse } from '@/types/api'
import { env } from '@/config/env'
import { ApiError, InvalidResponseError, isClientError } from './api-error'
import { msUntilExpiry } from './jwt'
import { tokenStorage } from './token-storage'

/**
 * The one place that calls fetch (docs/architecture.md §3). It owns the token rules of docs/product-rules.md §7:
 * x-auth-token on every call, a refresh when under 5 minutes remain, one refresh for any
 * number of concurrent 401s (they wait for it and retry), and sign-out when refresh fails.
 */
export const REFRESH_MARGIN_MS = 5 * 60_000 // docs/product-rules.md §9
const REFRESH_PATH = '/api/auth/refresh-token'
const REFRESH_LOCK = 'portal-token-refresh'

type QueryValue = string | number | boolean | null | undefined
export type RequestOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  body?: unknown
  params?: Record<string, QueryValue>
  /** Login, refresh, revoke and config: no token, no refresh, no retry. */
  public?: boolean
  /**
   * 'blob' for downloads such as the logs CSV; 'file' for a download with the name the server
   * gives it in Content-Disposition (a DownloadedFile).
   */
  responseType?: 'json' | 'blob' | 'file'
  /** Extra request headers, e.g. a create form's Idempotency-Key. */
  headers?: Record<string, string>
}

export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  if (options.public) return send<T>(path, options, null)
  await refreshIfExpiring()
  const token = tokenStorage.getAccessToken()
  try {
    return await send<T>(path, options, token)
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 401) throw error
    return send<T>(path, options, await tokenAfterUnauthorized(token, error))
  }
}

type Options = Omit<RequestOptions, 'method' | 'body'>
export const api = {
  get: <T>(path: string, options?: Options) => apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: Options) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options?: Options) => apiRequest<T>(path, { ...options, method: 'PUT', body }),
  patch: <T>(path: string, body?: unknown, options?: Options) =>
    apiRequest<T>(path, { ...options, method: 'PATCH', body }),
  delete: <T>(path: string, options?: Options) => apiRequest<T>(path, { ...options, method: 'DELETE' }),
}

/** docs/product-rules.md §4: signed out = stored tokens and user cleared; the auth guard then shows /login. */
export function signOut(): void {
  tokenStorage.clear()
}

/** docs/product-rules.md §5: a login or refresh response lacking accessToken, refreshToken or user is refused. */
export function parseSession(data: unknown): SessionResponse {
  const value = (data ?? {}) as Partial<Record<keyof SessionResponse, unknown>>
  const ok =
    typeof value.accessToken === 'string' &&
    value.accessToken !== '' &&
    typeof value.refreshToken === 'string' &&
    value.refreshToken !== '' &&
    typeof value.user === 'object' &&
    value.user !== null
  if (!ok) throw new InvalidResponseError()
  return value as SessionResponse
}

let inflight: Promise<SessionResponse> | null = null

/**
 * One refresh at a time: callers arriving while one runs share it. A definitive refusal
 * signs out; a network or server failure leaves the tokens for a later try.
 */
export function refreshSession(): Promise<SessionResponse> {
  inflight ??= withCrossTabLock(runRefresh).finally(() => {
    inflight = null
  })
  return inflight
}

async function runRefresh(tokenBefore: string | null): Promise<SessionResponse> {
  const stored = tokenStorage.read()
  // Another tab refreshed while we waited for the lock: its rotated tokens are ours too.
  if (stored.refreshToken && stored.refreshToken !== tokenBefore && isFresh(stored.accessToken) && stored.user) {
    return { accessToken: stored.accessToken!, refreshToken: stored.refreshToken, user: stored.user }
  }
  try {
    if (!stored.refreshToken) throw new ApiError({ status: 401, message: 'No refresh token is stored' })
    const data = await send<unknown>(
      REFRESH_PATH,
      { method: 'POST', body: { refreshToken: stored.refreshToken } },
      null,
    )
    const session = parseSession(data)
    tokenStorage.setSession(session)
    return session
  } catch (error) {
    if (isClientError(error) || error instanceof InvalidResponseError) signOut()
    throw error
  }
}

function withCrossTabLock(task: (tokenBefore: string | null) => Promise<SessionResponse>) {
  const tokenBefore = tokenStorage.getRefreshToken()
  // Refresh tokens are single-use (docs/product-decisions.md D17); two tabs spending the same one would end the session.
  if (typeof navigator !== 'undefined' && 'locks' in navigator && navigator.locks) {
    // The DOM typing nests the task's promise; `then` flattens it as the runtime does.
    return navigator.locks.request(REFRESH_LOCK, () => task(tokenBefore)).then((session) => session)
  }
  return task(tokenBefore)
}

function isFresh(token: string | null): token is string {
  if (!token) return false
  const left = msUntilExpiry(token)
  return left === null || left >= REFRESH_MARGIN_MS
}

async function refreshIfExpiring(): Promise<void> {
  const token = tokenStorage.getAccessToken()
  if (!token || isFresh(token) || !tokenStorage.getRefreshToken()) return
  try {
    await refreshSession()
  } catch (error) {
    if (!tokenStorage.getRefreshToken()) throw error // refused: signed out already
    console.warn('Token refresh failed; trying the current token', error)
  }
}

async function tokenAfterUnauthorized(usedToken: string | null, unauthorized: ApiError): Promise<string> {
  const current = tokenStorage.getAccessToken()
  if (current && current !== usedToken) return current // refreshed while this call was out
  try {
    return (await refreshSession()).accessToken
  } catch (error) {
    console.warn('Token refresh after a 401 failed; signing out', error)
    signOut()
    throw unauthorized
  }
}

function buildUrl(path: string, params: RequestOptions['params']): string {
  const url = new URL(`${env.API_URL}${path}`, window.location.origin)
  for (const [key, value] of Object.entries(params ?? {})) {
    if (value !== undefined && value !== null && value !== '') url.searchParams.set(key, String(value))
  }
  return url.toString()
}

async function send<T>(path: string, options: RequestOptions, token: string | null): Promise<T> {
  const headers: Record<string, string> = { ...options.headers, Accept: 'application/json' }
  if (options.body !== undefined) headers['Content-Type'] = 'application/json'
  if (token) headers['x-auth-token'] = token
  let response: Response
  try {
    response = await fetch(buildUrl(path, options.params), {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    })
  } catch (error) {
    throw new ApiError({ status: 0, code: 'NETWORK_ERROR', message: `Network request failed: ${String(error)}` })
  }
  if (response.ok && options.responseType === 'blob') return (await response.blob()) as T
  if (response.ok && options.responseType === 'file') {
    const file: DownloadedFile = {
      blob: await response.blob(),
      fileName: fileNameOf(response.headers.get('Content-Disposition')),
    }
    return file as T
  }
  const data = await readJson(response)
  if (!response.ok) throw toApiError(response, data)
  return data as T
}

/** A download and the name the server gave it (null when it gave none). */
export type DownloadedFile = { blob: Blob; fileName: string | null }

/** The file name of a Content-Disposition header: filename*=UTF-8''… first, else filename="…". */
export function fileNameOf(header: string | null): string | null {
  if (!header) return null
  const encoded = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header)?.[1]
  if (encoded) {
    try {
      return decodeURIComponent(encoded.trim())
    } catch {
      // A malformed encoding: fall back to the plain parameter.
    }
  }
  const plain = /filename\s*=\s*(?:"([^"]*)"|([^;]+))/i.exec(header)
  const name = (plain?.[1] ?? plain?.[2])?.trim()
  return name || null
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text()
  if (!text) return undefined
  try {
    return JSON.parse(text)
  } catch {
    if (response.ok) throw new InvalidResponseError()
    return undefined // e.g. a proxy's HTML error page: the status still tells what happened
  }
}

function toApiError(response: Response, data: unknown): ApiError {
  const body = data && typeof data === 'object' ? (data as Record<string, unknown>) : {}
  const retryAfter = Number(response.headers.get('Retry-After'))
  return new ApiError({
    status: response.status,
    code: typeof body.code === 'string' ? body.code : undefined,
    serverMessage: typeof body.message === 'string' && body.message ? body.message : undefined,
    retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
    body,
  })
}
