import type { Role } from '@portal/shared'
import type { RouteRule } from './access-rules'

const ADMIN: Role[] = ['admin']
let unique = 0
const next = () => `${Date.now()}-i${(unique += 1)}`

/** The access matrix's expectations for API keys, webhook subscriptions and the demo catcher. */
export const INTEGRATION_RULES: Record<string, RouteRule> = {
  // API keys: an admin's (every key) and a client's (its company's, which the fixture allows).
  // A key revoked by an earlier caller is a 409 for the next one, rotate included.
  'GET /api/api-keys': { allow: ['admin', 'client'] },
  'POST /api/api-keys': {
    allow: ['admin', 'client'],
    payload: () => ({ name: `matrix-${next()}`, scopes: ['dispatch:read'] }),
  },
  'POST /api/api-keys/:id/rotate': { allow: ['admin', 'client'], id: 'apiKey', clientScoped: true, ok: [200, 409] },
  'DELETE /api/api-keys/:id': { allow: ['admin', 'client'], id: 'apiKey', clientScoped: true, ok: [200, 409] },
  'GET /api/admin/companies/:id/api-keys': { allow: ADMIN, id: 'company' },
  'PUT /api/admin/companies/:id/api-keys': { allow: ADMIN, id: 'company', payload: () => ({ allowed: true }) },
  // Webhook subscriptions: as API keys. The fixture's secrets do not open (reveal: 409); the
  // delivery id of a resend is one that does not exist (404). Deletes get fresh subscriptions.
  'GET /api/integrations/webhooks': { allow: ['admin', 'client'] },
  'POST /api/integrations/webhooks': {
    allow: ['admin', 'client'],
    payload: () => ({ url: `https://1.1.1.1/matrix-${next()}`, events: ['dispatch.created'] }),
  },
  'PATCH /api/integrations/webhooks/:id': {
    allow: ['admin', 'client'],
    id: 'webhook',
    clientScoped: true,
    payload: () => ({ description: 'matrix' }),
  },
  'DELETE /api/integrations/webhooks/:id': { allow: ['admin', 'client'], id: 'webhookFresh', clientScoped: true },
  'POST /api/integrations/webhooks/:id/secret': {
    allow: ['admin', 'client'],
    id: 'webhook',
    clientScoped: true,
    ok: [409],
  },
  'GET /api/integrations/webhooks/:id/deliveries': { allow: ['admin', 'client'], id: 'webhook', clientScoped: true },
  'POST /api/integrations/webhooks/:id/deliveries/:deliveryId/resend': {
    allow: ['admin', 'client'],
    id: 'webhook',
    clientScoped: true,
    ok: [404],
  },
  'POST /api/integrations/webhooks/:id/test': { allow: ['admin', 'client'], id: 'webhook', clientScoped: true },
  // Demo mode's built-in receiver: anyone may post (an unsigned post is refused, 401); what it
  // caught is shown to those who manage webhooks.
  'POST /api/demo/webhook-catcher': { allow: 'public', publicStatus: [401] },
  'GET /api/demo/webhook-catcher': { allow: ['admin', 'client'] },
}
