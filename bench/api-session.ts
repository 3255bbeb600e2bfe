/** Signing in through the real API (the same POST the sign-in screen makes). */
import type { Role } from '@portal/shared'

export interface ApiSession {
  accessToken: string
  refreshToken: string
  user: { id: string; role: Role; companyId: string | null; [key: string]: unknown }
  signedInAt: number
}

export async function signIn(baseUrl: string, email: string, password: string): Promise<ApiSession> {
  const response = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  })
  if (!response.ok) throw new Error(`sign-in of ${email} answered ${response.status}: ${await response.text()}`)
  const body = (await response.json()) as Omit<ApiSession, 'signedInAt'>
  return { ...body, signedInAt: Date.now() }
}

/** GET as the session; the status and the parsed body (null when not JSON). */
export async function getJson<T>(
  baseUrl: string,
  path: string,
  token: string,
): Promise<{ status: number; body: T | null }> {
  const response = await fetch(`${baseUrl}${path}`, { headers: { 'x-auth-token': token } })
  const text = await response.text()
  let body: T | null = null
  try {
    body = JSON.parse(text) as T
  } catch {
    body = null
  }
  return { status: response.status, body }
}
