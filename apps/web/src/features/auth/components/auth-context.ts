import type { User } from '@/types/api'
import { createContext, useContext } from 'react'

/** docs/product-rules.md §4: the guard's states are loading, (refreshing,) authenticated and redirected to login. */
export type AuthStatus = 'loading' | 'authenticated' | 'unauthenticated'

export type AuthContextValue = {
  status: AuthStatus
  user: User | null
  /** Revokes the refresh token (failure ignored) and clears the stored session. */
  logout: () => Promise<void>
  /** The guard's own retry: false at once when no refresh token is stored or the last try was under 30 s ago. */
  canRetryRefresh: () => boolean
  retryRefresh: () => Promise<boolean>
}

export const AuthContext = createContext<AuthContextValue | null>(null)

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext)
  if (!value) throw new Error('useAuth must be used inside <AuthProvider>')
  return value
}

/** For screens behind the guard, where a user is always present. */
export function useUser(): User {
  const { user } = useAuth()
  if (!user) throw new Error('useUser must be used behind <ProtectedRoute>')
  return user
}
