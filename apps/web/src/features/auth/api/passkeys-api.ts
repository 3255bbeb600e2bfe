import type { FactorAdded, SessionResponse } from '@portal/shared'
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser'
import { api, parseSession } from '@/lib/api-client'
import { ApiError, errorMessage } from '@/lib/api-error'

/**
 * The browser library loads when a passkey is used, not with the sign-in screen: most visits
 * sign in with a password, and the first visit to /login has a size budget.
 */
const webAuthn = () => import('@simplewebauthn/browser')

/** Whether this browser can make or use passkeys (what the library's own check looks at). */
export const passkeysSupported = () => typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function'

/**
 * The message for a failed passkey step: the server's, or a plain one for the browser's prompt
 * (its own message is technical; a closed or timed-out prompt is NotAllowedError everywhere).
 */
export function passkeyError(failure: unknown, fallback: string): string {
  if (failure instanceof ApiError) return errorMessage(failure, fallback)
  const name = (failure as { name?: string } | null)?.name
  if (name === 'NotAllowedError' || name === 'AbortError') return 'The passkey prompt was closed or timed out.'
  if (name === 'InvalidStateError') return 'This passkey is already registered.'
  return fallback
}

/** Profile: the browser makes a passkey for the server's options; the server adds it, named. */
export async function registerPasskey(name: string): Promise<FactorAdded> {
  const { options } = await api.post<{ options: PublicKeyCredentialCreationOptionsJSON }>(
    '/api/profile/mfa/passkeys/options',
  )
  const response = await (await webAuthn()).startRegistration({ optionsJSON: options })
  return api.post<FactorAdded>('/api/profile/mfa/passkeys', { name, response })
}

/** The sign-in screen: any passkey of this portal, chosen in the browser's prompt. */
export async function signInWithPasskey(): Promise<SessionResponse> {
  const { token, options } = await api.post<{ token: string; options: PublicKeyCredentialRequestOptionsJSON }>(
    '/api/auth/passkey/options',
    undefined,
    { public: true },
  )
  const response = await (await webAuthn()).startAuthentication({ optionsJSON: options })
  return parseSession(await api.post<unknown>('/api/auth/passkey', { token, response }, { public: true }))
}

/** The second step after a password: one of the account's passkeys. */
export async function verifyPasskeyStep(token: string): Promise<SessionResponse> {
  const { options } = await api.post<{ options: PublicKeyCredentialRequestOptionsJSON }>(
    '/api/auth/mfa/passkey/options',
    { token },
    { public: true },
  )
  const response = await (await webAuthn()).startAuthentication({ optionsJSON: options })
  return parseSession(await api.post<unknown>('/api/auth/mfa/passkey', { token, response }, { public: true }))
}

export const renameFactor = (id: string, name: string) =>
  api.patch(`/api/profile/mfa/factors/${encodeURIComponent(id)}`, { name })
