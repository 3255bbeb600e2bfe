import type { SsoDemo, SsoLogoutResponse, SsoLookup } from '@portal/shared'
import { useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { readSignInAnswer, type SignInAnswer } from './mfa-api'
import { storage } from '@/lib/storage'
import { tokenStorage } from '@/lib/token-storage'

/** Set while the stored session came from single sign-on: sign-out then ends the provider's too. */
export const SSO_SESSION_KEY = 'portal.ssoSession'

/** Where the browser goes to sign in through a company's provider. */
export const ssoStartUrl = (companyId: string) => `/api/auth/sso/${encodeURIComponent(companyId)}/start`

export function lookupSso(email: string): Promise<SsoLookup> {
  return api.get<SsoLookup>('/api/auth/sso/lookup', { public: true, params: { email } })
}

/** Whether the typed e-mail's domain signs in through its company (asked once the address looks whole). */
export function useSsoLookup(email: string) {
  const complete = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/.test(email)
  return useQuery({
    queryKey: ['auth', 'sso-lookup', email.toLowerCase()],
    queryFn: () => lookupSso(email),
    enabled: complete,
    staleTime: 60_000,
  })
}

/**
 * The one-time code from the callback, exchanged for the portal's tokens (stored as a login's
 * are), or for the second step an account with a factor must pass first.
 */
export async function exchangeSsoCode(code: string): Promise<SignInAnswer> {
  const answer = readSignInAnswer(await api.post<unknown>('/api/auth/sso/exchange', { code }, { public: true }))
  if (answer.session) tokenStorage.setSession(answer.session)
  storage.set(SSO_SESSION_KEY, '1')
  return answer
}

/** Ends the portal session; the provider's end-session address when it offers one. */
export async function ssoLogout(refreshToken: string): Promise<string | null> {
  const answer = await api.post<SsoLogoutResponse>('/api/auth/sso/logout', { refreshToken }, { public: true })
  return answer.endSessionUrl
}

export function useSsoDemo() {
  return useQuery({
    queryKey: ['auth', 'sso-demo'],
    queryFn: () => api.get<SsoDemo>('/api/auth/sso/demo', { public: true }),
    staleTime: Infinity,
  })
}
