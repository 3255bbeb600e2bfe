import { useEffect, useRef } from 'react'
import { useLocation } from 'react-router'
import { paths } from '@/config/paths'
import { logNavigation } from '../api/log-navigation'
import { useActivityQueueFlush } from '../hooks/use-activity-queue-flush'

/**
 * docs/product-rules.md §2: on every path change for a signed-in user, report the pathname. Mount it only
 * behind the auth guard. Query-string changes are not path changes; StrictMode's second
 * effect run is not one either.
 */
export function NavigationReporter() {
  const { pathname } = useLocation()
  const lastReported = useRef<string | null>(null)

  useEffect(() => {
    if (pathname === lastReported.current || pathname === paths.login.path) return
    lastReported.current = pathname
    void logNavigation(pathname)
  }, [pathname])

  useActivityQueueFlush()
  return null
}
