import { useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore, type ReactNode } from 'react'
import { signOut } from '@/lib/api-client'
import { ApiError, isClientError } from '@/lib/api-error'
import { tokenStorage } from '@/lib/token-storage'
import { getMe } from '../api/me'
import { refreshAccessToken } from '../api/refresh'
import { revokeRefreshToken } from '../api/revoke'
import { SSO_SESSION_KEY, ssoLogout } from '../api/sso'
import { storage } from '@/lib/storage'
import { AuthContext, type AuthContextValue, type AuthStatus } from './auth-context'

/** docs/product-rules.md §9: the guard retries a refresh only when more than 30 s passed since its last try. */
export const GUARD_RETRY_INTERVAL_MS = 30_000

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient()
  const session = useSyncExternalStore(tokenStorage.subscribe, tokenStorage.read, tokenStorage.read)
  const [bootstrapping, setBootstrapping] = useState(() => {
    const stored = tokenStorage.read()
    return Boolean(stored.accessToken || stored.refreshToken)
  })
  const started = useRef(false)
  const lastGuardRetry = useRef(Number.NEGATIVE_INFINITY)

  useEffect(() => {
    if (started.current || !bootstrapping) return
    started.current = true // StrictMode mounts twice; the start-up calls must run once
    void restoreSession().finally(() => setBootstrapping(false))
  }, [bootstrapping])

  const signedIn = Boolean(session.user && session.accessToken)
  const status: AuthStatus = bootstrapping ? 'loading' : signedIn ? 'authenticated' : 'unauthenticated'

  // Whoever signed out (logout, a failed refresh, another tab), the next user must not see cached data.
  const wasSignedIn = useRef(signedIn)
  useEffect(() => {
    if (wasSignedIn.current && !signedIn) queryClient.clear()
    wasSignedIn.current = signedIn
  }, [signedIn, queryClient])

  const logout = useCallback(async () => {
    const refreshToken = tokenStorage.getRefreshToken()
    const viaSso = storage.get(SSO_SESSION_KEY) === '1'
    storage.remove(SSO_SESSION_KEY)
    signOut()
    if (!refreshToken) return
    try {
      if (!viaSso) return await revokeRefreshToken(refreshToken)
      // A single sign-on session: the provider's own session ends too, where it offers that.
      const endSessionUrl = await ssoLogout(refreshToken)
      if (endSessionUrl) window.location.assign(endSessionUrl)
    } catch (error) {
      console.warn('Could not revoke the refresh token at logout', error) // docs/product-rules.md §7: failure ignored
    }
  }, [])

  const canRetryRefresh = useCallback(
    () => Boolean(tokenStorage.getRefreshToken()) && Date.now() - lastGuardRetry.current > GUARD_RETRY_INTERVAL_MS,
    [],
  )

  const retryRefresh = useCallback(async () => {
    lastGuardRetry.current = Date.now()
    try {
      await refreshAccessToken()
      return true
    } catch (error) {
      console.warn('Session refresh failed', error)
      return false
    }
  }, [])

  const value = useMemo<AuthContextValue>(
    () => ({ status, user: signedIn ? session.user : null, logout, canRetryRefresh, retryRefresh }),
    [status, signedIn, session.user, logout, canRetryRefresh, retryRefresh],
  )
  return <AuthContext value={value}>{children}</AuthContext>
}

/** docs/product-rules.md §4 start-up: load the user when an access token is stored, else try the refresh token. */
async function restoreSession(): Promise<void> {
  const { accessToken, refreshToken } = tokenStorage.read()
  try {
    if (accessToken) tokenStorage.setUser(await getMe())
    else if (refreshToken) await refreshAccessToken()
  } catch (error) {
    if (isClientError(error) && !(error instanceof ApiError && error.status === 401)) signOut()
    // A network or server failure keeps what is stored: the guard retries, and the stored user
    // lets a signed-in person keep working through a short outage.
    console.warn('Could not restore the session', error)
  }
}
