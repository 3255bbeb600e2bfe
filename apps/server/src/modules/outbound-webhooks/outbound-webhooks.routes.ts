import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
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
import { actorOf, requireUser } from '../../plugins/app/auth'
import type { HookManager, OutboundWebhooksService } from './outbound-webhooks.service'

function managerOf(request: FastifyRequest): HookManager {
  const user = requireUser(request)
  return { id: user.id, role: user.role, companyId: user.companyId, actor: actorOf(request), ip: request.ip }
}

const Queued = Type.Object({ deliveryId: Type.Integer() })

/**
 * Outgoing webhook subscriptions: an admin's for the vendor (and every company's, to see and
 * stop), a client's for its own company when an admin allows integrations for it (the API keys
 * setting). The signing secret is in the create and reveal answers only.
 */
export const outboundWebhooksRoutes: FastifyPluginAsyncTypebox<{ hooks: OutboundWebhooksService }> = async (
  app,
  { hooks },
) => {
  const tags = ['webhooks']
  const config = { permission: 'webhook.manage' as const }

  app.get(
    '/',
    { config, schema: { tags, response: { 200: WebhookListSchema, ...errorResponses(401, 403) } } },
    async (request) => hooks.list(managerOf(request)),
  )

  app.post(
    '/',
    {
      config,
      schema: {
        tags,
        body: WebhookCreateSchema,
        response: { 201: WebhookSecretSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => reply.code(201).send(await hooks.create(managerOf(request), request.body)),
  )

  app.patch(
    '/:id',
    {
      config,
      schema: {
        tags,
        params: UuidParamsSchema,
        body: WebhookUpdateSchema,
        response: { 200: WebhookSubscriptionSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => hooks.update(managerOf(request), request.params.id, request.body),
  )

  app.delete(
    '/:id',
    {
      config,
      schema: {
        tags,
        params: UuidParamsSchema,
        response: { 200: WebhookSubscriptionSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => hooks.remove(managerOf(request), request.params.id),
  )

  app.post(
    '/:id/secret',
    {
      config,
      schema: {
        tags,
        params: UuidParamsSchema,
        response: { 200: WebhookSecretSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => hooks.revealSecret(managerOf(request), request.params.id),
  )

  app.get(
    '/:id/deliveries',
    {
      config,
      schema: {
        tags,
        params: UuidParamsSchema,
        response: { 200: WebhookDeliveryListSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => hooks.deliveries(managerOf(request), request.params.id),
  )

  app.post(
    '/:id/deliveries/:deliveryId/resend',
    {
      config,
      schema: {
        tags,
        params: WebhookDeliveryParamsSchema,
        response: { 202: Queued, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await hooks.resend(managerOf(request), request.params.id, request.params.deliveryId)),
  )

  app.post(
    '/:id/test',
    {
      config,
      schema: { tags, params: UuidParamsSchema, response: { 202: Queued, ...errorResponses(400, 401, 403, 404) } },
    },
    async (request, reply) => reply.code(202).send(await hooks.sendTest(managerOf(request), request.params.id)),
  )
}
