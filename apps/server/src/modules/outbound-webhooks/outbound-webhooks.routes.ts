import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifySchema } from 'fastify'
import { Type } from 'typebox'
import {
  UuidParamsSchema,
  WebhookCreateSchema,
  WebhookDeliveryListSchema,
  WebhookDeliveryParamsSchema,
  WebhookListSchema,
  WebhookSecretSchema,
  WebhookSubscriptionSchema,
  WebhookUpdateSchema,
} from '@portal/shared'
import { errorResponses } from '../../lib/error-responses'
import { moduleRoute, route } from '../../lib/route'
import type { OutboundWebhooksService } from './outbound-webhooks.service'
import { managerOf } from '../api-keys/integration-access'

const Queued = Type.Object({ deliveryId: Type.Integer() })
const byIdErrors = errorResponses(400, 401, 403, 404)
/** Every subscription route: the one permission and tag. */
const hook = <S extends Omit<FastifySchema, 'tags'>>(schema: S) =>
  route('webhook.manage', { tags: ['webhooks'], ...schema })
/** A subscription route that answers 200 with the usual errors of a route by id. */
const byId = moduleRoute('webhooks', byIdErrors)

/**
 * Outgoing webhook subscriptions: an admin's for the vendor (and every company's, to see and
 * stop), a client's for its own company when an admin allows integrations for it (the API keys
 * setting). The signing secret is in the create and reveal answers only.
 */
export const outboundWebhooksRoutes: FastifyPluginAsyncTypebox<{ hooks: OutboundWebhooksService }> = async (
  app,
  { hooks },
) => {
  app.get('/', hook({ response: { 200: WebhookListSchema, ...errorResponses(401, 403) } }), async (request) =>
    hooks.list(managerOf(request)),
  )

  app.post(
    '/',
    hook({ body: WebhookCreateSchema, response: { 201: WebhookSecretSchema, ...errorResponses(400, 401, 403, 409) } }),
    async (request, reply) => reply.code(201).send(await hooks.create(managerOf(request), request.body)),
  )

  app.patch(
    '/:id',
    byId('webhook.manage', WebhookSubscriptionSchema, { params: UuidParamsSchema, body: WebhookUpdateSchema }),
    async (request) => hooks.update(managerOf(request), request.params.id, request.body),
  )

  app.delete('/:id', byId('webhook.manage', WebhookSubscriptionSchema, { params: UuidParamsSchema }), async (request) =>
    hooks.remove(managerOf(request), request.params.id),
  )

  app.post(
    '/:id/secret',
    hook({
      params: UuidParamsSchema,
      response: { 200: WebhookSecretSchema, ...errorResponses(400, 401, 403, 404, 409) },
    }),
    async (request) => hooks.revealSecret(managerOf(request), request.params.id),
  )

  app.get(
    '/:id/deliveries',
    byId('webhook.manage', WebhookDeliveryListSchema, { params: UuidParamsSchema }),
    async (request) => hooks.deliveries(managerOf(request), request.params.id),
  )

  app.post(
    '/:id/deliveries/:deliveryId/resend',
    hook({ params: WebhookDeliveryParamsSchema, response: { 202: Queued, ...byIdErrors } }),
    async (request, reply) =>
      reply.code(202).send(await hooks.resend(managerOf(request), request.params.id, request.params.deliveryId)),
  )

  app.post(
    '/:id/test',
    hook({ params: UuidParamsSchema, response: { 202: Queued, ...byIdErrors } }),
    async (request, reply) => reply.code(202).send(await hooks.sendTest(managerOf(request), request.params.id)),
  )
}
