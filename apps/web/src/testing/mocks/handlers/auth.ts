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
  // Single sign-on: no domain signs in through a provider, no demo provider, no connection.
  http.get('/api/auth/sso/lookup', () =>
    HttpResponse.json({ sso: false, companyId: null, companyName: null, startPath: null }),
  ),
  http.get('/api/auth/sso/demo', () =>
    HttpResponse.json({ companyId: null, companyName: null, accounts: [], password: null, staff: null }),
  ),
  http.get('/api/admin/sso/staff', () =>
    HttpResponse.json({
      connection: null,
      domains: [],
      roles: [],
      redirectUri: 'http://portal.test/api/auth/sso/callback',
    }),
  ),
  http.get('/api/admin/companies/:id/sso', ({ params }) =>
    HttpResponse.json({
      connection: null,
      domains: [],
      passwordUsers: [],
      redirectUri: 'http://portal.test/api/auth/sso/callback',
      saml: {
        entityId: `http://portal.test/api/auth/sso/saml/${String(params.id)}`,
        acsUrl: `http://portal.test/api/auth/sso/saml/${String(params.id)}/acs`,
        metadataUrl: `http://portal.test/api/auth/sso/saml/${String(params.id)}/metadata`,
      },
    }),
  ),
]
