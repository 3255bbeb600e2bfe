import type { AuthConfig } from '@portal/shared'
import { http, HttpResponse } from 'msw'

export const SUPPORT_EMAIL = 'support@dispatch-portal.test'

export const authConfig: AuthConfig = {
  demoMode: false,
  demoAccounts: [],
  demoPassword: null,
  supportEmail: SUPPORT_EMAIL,
}

/** Public calls every screen may make. Login, me and refresh are set per test with server.use. */
export const authHandlers = [
  http.get('/api/auth/config', () => HttpResponse.json(authConfig)),
  http.post('/api/auth/revoke-token', () => HttpResponse.json({ message: 'Signed out' })),
]
