import type { Role } from '@portal/shared'
import { TEST_PASSWORD } from '../helpers'
import type { AccessFixture } from './access-fixture'
import { INTEGRATION_RULES } from './access-rules-integrations'

export type Caller = Role | 'none'
export type IdKind = 'own' | 'foreign' | 'missing' | 'hidden'
export type IdResource =
  'dispatch' | 'company' | 'course' | 'request' | 'user' | 'alert' | 'job' | 'apiKey' | 'webhook' | 'webhookFresh'

export interface RouteRule {
  /** Roles that pass the permission check (docs/product-rules.md §6, docs/product-decisions.md D7), or a public route. */
  allow: readonly Role[] | 'public'
  /** What `:id` stands for; each id kind is tried. */
  id?: IdResource
  /** A client gets 404 for another company's id (docs/product-decisions.md D7: out of scope is not found). */
  clientScoped?: boolean
  /** Statuses an allowed caller gets for an existing id (default: any 2xx). */
  ok?: readonly number[]
  /** Public routes: what every caller, with or without a token, gets. */
  publicStatus?: readonly number[]
  payload?: (kind: IdKind, fx: AccessFixture) => object
}

const ALL: Role[] = ['admin', 'internal', 'sales', 'client']
const STAFF: Role[] = ['admin', 'internal', 'sales']
const ADMIN: Role[] = ['admin']
let unique = 0
const next = () => `${Date.now()}-${(unique += 1)}`

/**
 * The expectation for every route the server registers, keyed `METHOD /url` (trailing slash
 * dropped; HEAD follows GET). A route missing here fails the access matrix.
 */
export const ROUTE_RULES: Record<string, RouteRule> = {
  // Operations and documentation: public by design (docs/product-decisions.md D7; the docs grant nothing).
  'GET /api/health': { allow: 'public', publicStatus: [200] },
  'GET /api/ready': { allow: 'public', publicStatus: [200] },
  'GET /api/health/ready': { allow: 'public', publicStatus: [200] },
  'GET /api/docs': { allow: 'public', publicStatus: [200, 302] },
  'GET /api/docs/static/index.html': { allow: 'public', publicStatus: [302] },
  'GET /api/docs/static/*': { allow: 'public', publicStatus: [404] },
  'GET /api/docs/static/swagger-initializer.js': { allow: 'public', publicStatus: [200] },
  'GET /api/docs/json': { allow: 'public', publicStatus: [200] },
  'GET /api/docs/yaml': { allow: 'public', publicStatus: [200] },

  // Sign-in: public, but a wrong credential is never a 2xx.
  'POST /api/auth/login': {
    allow: 'public',
    publicStatus: [401],
    payload: () => ({ email: `nobody-${next()}@example.test`, password: TEST_PASSWORD }),
  },
  'POST /api/auth/refresh-token': { allow: 'public', publicStatus: [401], payload: () => ({ refreshToken: 'x.y.z' }) },
  'POST /api/auth/revoke-token': { allow: 'public', publicStatus: [200], payload: () => ({ refreshToken: 'x.y.z' }) },
  'GET /api/auth/config': { allow: 'public', publicStatus: [200] },
  // Single sign-on's public side: the flow redirects (an unknown company back to the sign-in
  // page), a made-up one-time code is never a session, the lookup needs an e-mail.
  'GET /api/auth/sso/lookup': { allow: 'public', publicStatus: [400] },
  'GET /api/auth/sso/demo': { allow: 'public', publicStatus: [200] },
  'GET /api/auth/sso/:companyId/start': { allow: 'public', publicStatus: [302] },
  'GET /api/auth/sso/callback': { allow: 'public', publicStatus: [302] },
  'GET /api/auth/sso/staff/start': { allow: 'public', publicStatus: [302] },
  'POST /api/auth/sso/exchange': { allow: 'public', publicStatus: [401], payload: () => ({ code: 'made-up' }) },
  'POST /api/auth/sso/logout': { allow: 'public', publicStatus: [200], payload: () => ({ refreshToken: 'x.y.z' }) },
  // SAML: the SP metadata of an unknown company is 404; a response posted to a company without
  // a SAML connection is refused back to the sign-in page (303).
  'GET /api/auth/sso/saml/:companyId/metadata': { allow: 'public', publicStatus: [404] },
  'POST /api/auth/sso/saml/:companyId/acs': {
    allow: 'public',
    publicStatus: [303],
    payload: () => ({ SAMLResponse: Buffer.from('<samlp:Response/>').toString('base64') }),
  },
  // A LogoutResponse for a company without a SAML connection is refused back to the sign-in page.
  'POST /api/auth/sso/saml/:companyId/slo': {
    allow: 'public',
    publicStatus: [303],
    payload: () => ({ SAMLResponse: Buffer.from('<samlp:LogoutResponse/>').toString('base64') }),
  },
  // The postback webhook has its own Basic credentials; an access token is not one.
  'POST /api/webhooks/scorm-cloud/registrations': {
    allow: 'public',
    publicStatus: [401],
    payload: () => ({ id: 'reg', dispatchId: 'sec-dispatch-a' }),
  },
  // The second step of a sign-in: public for access tokens, each takes the single-purpose token
  // of the sign-in answer in its body; a made-up one is never a session.
  'POST /api/auth/mfa/totp': {
    allow: 'public',
    publicStatus: [401],
    payload: () => ({ token: 'made-up', code: '123456' }),
  },
  'POST /api/auth/mfa/recovery': {
    allow: 'public',
    publicStatus: [401],
    payload: () => ({ token: 'made-up', code: 'AAAA-BBBB-CCCC' }),
  },
  'POST /api/auth/mfa/enrol/totp': { allow: 'public', publicStatus: [401], payload: () => ({ token: 'made-up' }) },
  'POST /api/auth/mfa/enrol/totp/confirm': {
    allow: 'public',
    publicStatus: [401],
    payload: () => ({ token: 'made-up', factorId: '00000000-0000-4000-8000-000000000000', code: '123456' }),
  },
  'POST /api/auth/mfa/passkey/options': { allow: 'public', publicStatus: [401], payload: () => ({ token: 'made-up' }) },
  'POST /api/auth/mfa/passkey': {
    allow: 'public',
    publicStatus: [401],
    payload: () => ({ token: 'made-up', response: { id: 'made-up' } }),
  },
  // Signing in with a passkey alone: options for anyone; a made-up token is never a session.
  'POST /api/auth/passkey/options': { allow: 'public' },
  'POST /api/auth/passkey': {
    allow: 'public',
    publicStatus: [401],
    payload: () => ({ token: 'made-up', response: { id: 'made-up' } }),
  },
  'GET /api/auth/me': { allow: ALL },
  'GET /api/auth/users': { allow: ADMIN },

  // Dispatches and reports (docs/product-rules.md §6 row 1-3): a client sees only its own company.
  'GET /api/dispatches': { allow: ALL },
  'GET /api/dispatches/destinations': { allow: STAFF },
  'GET /api/dispatches/:id': { allow: ALL, id: 'dispatch', clientScoped: true },
  // A dispatch's licence history and a company's usage statement: every role, a client its own company's only.
  'GET /api/dispatches/:id/history': { allow: ALL, id: 'dispatch', clientScoped: true },
  'GET /api/dispatches/:id/history/export': { allow: ALL, id: 'dispatch', clientScoped: true },
  'GET /api/statements/:id': { allow: ALL, id: 'company', clientScoped: true },
  'GET /api/statements/:id/export': { allow: ALL, id: 'company', clientScoped: true },
  // Admin only; without SCORM Cloud credentials the edit answers 503 (provider first).
  'PUT /api/dispatches/:id': {
    allow: ADMIN,
    id: 'dispatch',
    ok: [503],
    payload: () => ({ enabled: true }),
  },
  // Without SCORM Cloud credentials every provider call answers 503 (provider first).
  'POST /api/dispatches': {
    allow: ADMIN,
    ok: [503],
    payload: (_kind, fx) => ({ companyId: fx.company.own, courseId: 'sec-course-foreign' }),
  },
  'POST /api/dispatches/:id/registration-count/reset': { allow: ADMIN, id: 'dispatch', ok: [503] },
  // Scheduled renewals and bulk actions: staff who may edit dispatches (the admin). A schedule
  // or a bulk run is only written (201, 202); nothing reaches SCORM Cloud until its job runs.
  'POST /api/dispatches/renewals': {
    allow: ADMIN,
    payload: (_kind, fx) => ({ dispatchIds: [fx.dispatch.own], runOn: '2999-01-01', resetCount: true }),
  },
  'GET /api/dispatches/renewals': { allow: ADMIN },
  'DELETE /api/dispatches/renewals/:id': { allow: ADMIN, id: 'job', ok: [404] },
  'POST /api/dispatches/bulk': {
    allow: ADMIN,
    payload: (_kind, fx) => ({ action: 'enable', dispatchIds: [fx.dispatch.own] }),
  },
  'GET /api/dispatches/bulk/:id': { allow: ADMIN, id: 'job', ok: [404] },
  'GET /api/dispatches/:id/package': { allow: ALL, id: 'dispatch', clientScoped: true, ok: [503] },
  // Staff name the company (400 without it); a client's is its own.
  'GET /api/dispatches/packages': { allow: ALL, ok: [400, 503] },
  // Delivery settings: read by all (a client its own company's), edited by the admin; a style
  // sheet alone needs no provider, instancing does (503 without SCORM Cloud credentials).
  'GET /api/dispatches/:id/delivery': { allow: ALL, id: 'dispatch', clientScoped: true },
  'PUT /api/dispatches/:id/delivery': {
    allow: ADMIN,
    id: 'dispatch',
    ok: [503],
    payload: () => ({ instanced: false }),
  },
  'GET /api/companies/:id/delivery': { allow: ALL, id: 'company', clientScoped: true },
  'PUT /api/companies/:id/delivery': {
    allow: ADMIN,
    id: 'company',
    payload: () => ({ cssUrl: 'https://styles.example.com/portal.css' }),
  },
  'GET /api/companies/:id/licence-count': { allow: ALL, id: 'company', clientScoped: true },
  'GET /api/dispatches/:id/licence-count': { allow: ALL, id: 'dispatch', clientScoped: true },
  // LTI data comes from SCORM Cloud on each request; the shared secret only to the roles allowed.
  'GET /api/dispatches/:id/lti': { allow: ALL, id: 'dispatch', clientScoped: true, ok: [503] },
  'POST /api/dispatches/:id/lti/secret': {
    allow: ['admin', 'internal', 'client'],
    id: 'dispatch',
    clientScoped: true,
    ok: [503],
  },
  'GET /api/reports/registrations/count': { allow: STAFF },
  'GET /api/reports/dispatch/:id': { allow: ALL, id: 'dispatch', clientScoped: true },
  // ---- Charts (the nearest-cap list is left out of a client's answer) ----
  'GET /api/reports/charts/dispatch/:id': { allow: ALL, id: 'dispatch', clientScoped: true },
  'GET /api/reports/charts/dashboard': { allow: ALL },
  // The report's export (CSV by default), the learner view (a client:
  // its own company, whatever it asks; staff name one).
  'GET /api/reports/dispatch/:id/export': { allow: ALL, id: 'dispatch', clientScoped: true },
  'GET /api/learners': { allow: ALL },
  'GET /api/learners/export': { allow: ALL },
  'GET /api/learners/:email/registrations': { allow: ALL },

  // Courses: the catalogue is for all, hidden courses for admins only.
  'GET /api/dispatches/courses': { allow: ALL },
  'GET /api/dispatches/courses/sync': { allow: ADMIN, ok: [503] },
  'GET /api/courses/:id/details': { allow: ALL, id: 'course' },
  'PUT /api/courses/:id/details': { allow: ADMIN, id: 'course', payload: () => ({ summary: 'Edited summary' }) },
  'PUT /api/courses/:id/visibility': {
    allow: ADMIN,
    id: 'course',
    payload: (kind) => ({ isVisible: kind !== 'hidden' }),
  },

  // Course requests: admin edits, sales views, a client its own, internal nothing.
  'GET /api/course-requests': { allow: ['admin', 'sales', 'client'] },
  'POST /api/course-requests': {
    allow: ['client'],
    ok: [201],
    payload: () => ({ courseId: 'sec-course-foreign', licenses: 2, notes: 'matrix' }),
  },
  'POST /api/course-requests/:id/fulfil': {
    allow: ADMIN,
    id: 'request',
    ok: [503],
    payload: () => ({ mode: 'create' }),
  },
  'PUT /api/course-requests/:id/status': {
    allow: ADMIN,
    id: 'request',
    payload: (kind, fx) => ({ status: kind === 'foreign' ? fx.request.foreignStatus : fx.request.ownStatus }),
  },

  // Companies: admin views, edits and syncs; sales views.
  'GET /api/admin/companies': { allow: ['admin', 'sales'] },
  'GET /api/admin/companies/:id': { allow: ['admin', 'sales'], id: 'company' },
  'PUT /api/admin/companies/:id': {
    allow: ADMIN,
    id: 'company',
    payload: (kind) => ({ name: kind === 'foreign' ? 'Foreign Company Beta' : 'Own Company Alpha' }),
  },
  'GET /api/admin/companies/sync': { allow: ADMIN, ok: [503] },
  'GET /api/admin/sync/status': { allow: ADMIN, ok: [503] },
  'GET /api/admin/users/sales': { allow: ['admin', 'sales'] },

  // User management and logs: admin only.
  'GET /api/users': { allow: ADMIN },
  'POST /api/users': {
    allow: ADMIN,
    ok: [201],
    payload: () => ({ email: `made-${next()}@example.test`, password: TEST_PASSWORD, role: 'internal' }),
  },
  'GET /api/users/:id': { allow: ADMIN, id: 'user' },
  'PUT /api/users/:id': { allow: ADMIN, id: 'user', payload: () => ({ name: 'Renamed By Matrix' }) },
  'PUT /api/users/:id/status': { allow: ADMIN, id: 'user', payload: () => ({ status: 'suspended' }) },
  'DELETE /api/users/:id': { allow: ADMIN, id: 'user' },
  'GET /api/users/:id/activity': { allow: ADMIN, id: 'user' },
  'GET /api/logs': { allow: ADMIN },
  'GET /api/logs/export.csv': { allow: ADMIN },
  'POST /api/logs/action': {
    allow: ALL,
    payload: () => ({ action: 'HELP_BUTTON_CLICKED', details: 'matrix' }),
  },
  'POST /api/logs/navigation': { allow: ALL, payload: () => ({ pathname: '/dashboard' }) },

  // Notifications are the caller's (a client: its company's alerts), settings and
  // the outbox are admin's, preferences everyone's own.
  'GET /api/notifications': { allow: ALL },
  'POST /api/notifications/:id/read': { allow: ALL, id: 'alert', clientScoped: true },
  'POST /api/notifications/read-all': { allow: ALL },
  'GET /api/notifications/dispatch-flags': { allow: ALL, ok: [400] },
  'GET /api/admin/alert-settings': { allow: ADMIN },
  'PUT /api/admin/alert-settings': {
    allow: ADMIN,
    payload: () => ({ usageThresholds: [80, 90, 100], expiryDays: [30, 14, 7] }),
  },
  'GET /api/admin/companies/:id/alert-settings': { allow: ADMIN, id: 'company' },
  'PUT /api/admin/companies/:id/alert-settings': {
    allow: ADMIN,
    id: 'company',
    payload: () => ({ usageThresholds: [80, 90, 100], expiryDays: [30, 14, 7] }),
  },
  'DELETE /api/admin/companies/:id/alert-settings': { allow: ADMIN, id: 'company' },
  // A company's single sign-on connection and domains: admin only. Removing or testing a
  // connection the company does not have is a 404.
  'GET /api/admin/companies/:id/sso': { allow: ADMIN, id: 'company' },
  'PUT /api/admin/companies/:id/sso': {
    allow: ADMIN,
    id: 'company',
    payload: () => ({
      protocol: 'oidc',
      issuer: 'https://idp.example.test',
      clientId: 'matrix',
      ssoRequired: false,
      createUsers: false,
    }),
  },
  'DELETE /api/admin/companies/:id/sso': { allow: ADMIN, id: 'company', ok: [200, 404] },
  'PUT /api/admin/companies/:id/sso/domains': {
    allow: ADMIN,
    id: 'company',
    payload: (kind) => ({ domains: [`matrix-${kind}-${next()}.test`] }),
  },
  'POST /api/admin/companies/:id/sso/test': { allow: ADMIN, id: 'company', ok: [200, 404] },
  'PUT /api/admin/companies/:id/sso/password-users': {
    allow: ADMIN,
    id: 'company',
    payload: () => ({ userIds: [] }),
  },
  // A test sign-in: the matrix's issuer is unreachable (502) or the company has no connection (404);
  // a test's outcome is the admin's own, so a made-up test id is a 404.
  'POST /api/admin/companies/:id/sso/test/start': { allow: ADMIN, id: 'company', ok: [200, 404, 502] },
  'GET /api/admin/companies/:id/sso/test/:flowId': { allow: ADMIN, id: 'company', ok: [404] },
  // The vendor's staff connection: admin only. Without one, removing or testing it is a 404.
  'GET /api/admin/sso/staff': { allow: ADMIN },
  'PUT /api/admin/sso/staff': {
    allow: ADMIN,
    payload: () => ({ displayName: 'Vendor', issuer: 'https://idp.example.test', clientId: 'matrix-staff' }),
  },
  'DELETE /api/admin/sso/staff': { allow: ADMIN, ok: [200, 404] },
  'PUT /api/admin/sso/staff/domains': { allow: ADMIN, payload: () => ({ domains: [`staff-${next()}.test`] }) },
  'PUT /api/admin/sso/staff/roles': {
    allow: ADMIN,
    payload: () => ({ roles: [{ claimValue: `matrix-${next()}`, role: 'sales' }] }),
  },
  'POST /api/admin/sso/staff/test': { allow: ADMIN, ok: [200, 404] },
  'POST /api/admin/sso/staff/test/start': { allow: ADMIN, ok: [200, 404, 502] },
  'GET /api/admin/sso/staff/test/:flowId': { allow: ADMIN, ok: [404] },
  'GET /api/admin/outbox': { allow: ADMIN },
  // The background jobs (modules/jobs): an admin's retry or cancel of an unknown job is 404.
  'GET /api/admin/jobs': { allow: ADMIN },
  'POST /api/admin/jobs/:id/retry': { allow: ADMIN, id: 'job', ok: [404] },
  'POST /api/admin/jobs/:id/cancel': { allow: ADMIN, id: 'job', ok: [404] },
  // Second factors, recovery codes and sessions: the caller's own (every role). The matrix's
  // path keeps the literal `:factorId`/`:sessionId`, which is not a UUID: past the permission
  // check, validation refuses it.
  'GET /api/profile/security': { allow: ALL },
  'POST /api/profile/mfa/totp': { allow: ALL },
  'POST /api/profile/mfa/totp/:factorId/confirm': { allow: ALL, ok: [400], payload: () => ({ code: '123456' }) },
  'DELETE /api/profile/mfa/factors/:factorId': { allow: ALL, ok: [400] },
  'POST /api/profile/mfa/recovery-codes': { allow: ALL, ok: [409] },
  'PATCH /api/profile/mfa/factors/:factorId': { allow: ALL, ok: [400], payload: () => ({ name: 'Renamed' }) },
  'POST /api/profile/mfa/passkeys/options': { allow: ALL },
  // A made-up answer to no challenge of the caller's: refused, nothing added.
  'POST /api/profile/mfa/passkeys': {
    allow: ALL,
    ok: [409],
    payload: () => ({ name: 'Key', response: { id: 'made-up', response: { clientDataJSON: 'e30' } } }),
  },
  'GET /api/profile/sessions': { allow: ALL },
  'DELETE /api/profile/sessions/:sessionId': { allow: ALL, ok: [400] },
  // Ends the caller's other sessions: the caller's own (the matrix's) stays.
  'POST /api/profile/sessions/end-others': { allow: ALL },
  // A user's factors and sessions in User Management, the rules: admin only.
  'GET /api/users/:id/mfa': { allow: ADMIN, id: 'user' },
  'DELETE /api/users/:id/mfa': { allow: ADMIN, id: 'user' },
  'DELETE /api/users/:id/sessions': { allow: ADMIN, id: 'user' },
  'GET /api/admin/mfa/rules': { allow: ADMIN },
  'PUT /api/admin/mfa/rules': { allow: ADMIN, payload: () => ({ rules: [{ role: 'sales', required: false }] }) },
  'GET /api/admin/companies/:id/mfa': { allow: ADMIN, id: 'company' },
  'PUT /api/admin/companies/:id/mfa': { allow: ADMIN, id: 'company', payload: () => ({ required: false }) },
  ...INTEGRATION_RULES,
  'GET /api/profile/preferences': { allow: ALL },
  'PUT /api/profile/preferences': {
    allow: ALL,
    payload: () => ({ alertMails: true, weeklyDigest: false, timeZone: 'UTC', reportFrequency: 'off', reportHour: 8 }),
  },
}

/** The statuses a caller must get; `null` means any 2xx. */
export function expectedStatuses(rule: RouteRule, caller: Caller, kind: IdKind | null): readonly number[] | null {
  if (rule.allow === 'public') return rule.publicStatus ?? null
  if (caller === 'none') return [401]
  if (!rule.allow.includes(caller)) return [403]
  if (kind === 'missing') return [404]
  if (kind === 'hidden' && caller !== 'admin') return [404]
  if (kind === 'foreign' && caller === 'client' && rule.clientScoped) return [404]
  return rule.ok ?? null
}
