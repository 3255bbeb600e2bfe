import { useEffect, useState, type ReactNode } from 'react'
import { Navigate, useLocation } from 'react-router'
import { PageSpinner } from '@/components/ui/spinner'
import { paths } from '@/config/paths'
import { useAuth } from './auth-context'

/** docs/product-rules.md §9: an unauthenticated route waits 500 ms before its refresh try. */
export const GUARD_REFRESH_DELAY_MS = 500

/**
 * docs/product-rules.md §2: a Loading... spinner while authentication is loading or refreshing, /login when
 * unauthenticated. Before giving up, the route waits 500 ms and tries a token refresh once
 * (again only when its last try is more than 30 s old, see canRetryRefresh).
 */
export function ProtectedRoute({ children }: { children: ReactNode }) {
  const { status, canRetryRefresh, retryRefresh } = useAuth()
  const location = useLocation()
  const [givenUp, setGivenUp] = useState(false)

  useEffect(() => {
    if (status !== 'unauthenticated') return
    let cancelled = false
    const willRetry = canRetryRefresh()
    // Without a retry the redirect follows at once (a zero delay keeps state changes out of the effect body).
    const timer = setTimeout(
      async () => {
        const restored = willRetry && (await retryRefresh())
        if (!restored && !cancelled) setGivenUp(true)
      },
      willRetry ? GUARD_REFRESH_DELAY_MS : 0,
    )
    return () => {
      cancelled = true
      clearTimeout(timer)
    }
  }, [status, canRetryRefresh, retryRefresh])

  if (status === 'authenticated') return children
  if (status === 'unauthenticated' && givenUp) {
    return <Navigate to={paths.login.getHref()} replace state={{ from: location.pathname }} />
  }
  return <PageSpinner />
}
