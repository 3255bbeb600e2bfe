import { useEffect } from 'react'
import { useNavigate } from 'react-router'
import { paths } from '@/config/paths'
import { useAuth } from './auth-context'

/** docs/product-rules.md §9: a signed-in user who opens the login screen goes to /dashboard after 100 ms. */
export const LOGIN_REDIRECT_DELAY_MS = 100

export function useRedirectWhenSignedIn(): boolean {
  const { status } = useAuth()
  const navigate = useNavigate()
  const signedIn = status === 'authenticated'

  useEffect(() => {
    if (!signedIn) return
    const timer = setTimeout(() => navigate(paths.dashboard.getHref(), { replace: true }), LOGIN_REDIRECT_DELAY_MS)
    return () => clearTimeout(timer)
  }, [signedIn, navigate])

  return signedIn
}
