import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import {
  ApiKeyCreateSchema,
  ApiKeyListSchema,
  ApiKeySchema,
  ApiKeySecretSchema,
  ApiKeysAllowedSchema,
  IdParamsSchema,
  UuidParamsSchema,
} from '@portal/shared'
import { errorResponses } from '../../lib/error-responses'
import { moduleRoute, route } from '../../lib/route'
import type { ApiKeysService } from './api-keys.service'
import { managerOf } from './integration-access'

/** A key's own routes (rotate, revoke): 409 when it is already revoked. */
const keyRoute = moduleRoute('api keys', errorResponses(400, 401, 403, 404, 409))

/**
 * API keys: an admin's for the vendor (and every company's, to see and revoke), a client's for
 * its own company when an admin allows it. The secret is in the create and rotate answers only.
 */
export const apiKeysRoutes: FastifyPluginAsyncTypebox<{ apiKeys: ApiKeysService }> = async (app, { apiKeys }) => {
  const tags = ['api keys']

  app.get(
    '/',
    route('apiKey.manage', { tags, response: { 200: ApiKeyListSchema, ...errorResponses(401, 403) } }),
    async (request) => apiKeys.list(managerOf(request)),
  )

  app.post(
    '/',
    route('apiKey.manage', {
      tags,
      body: ApiKeyCreateSchema,
      response: { 201: ApiKeySecretSchema, ...errorResponses(400, 401, 403) },
    }),
    async (request, reply) => reply.code(201).send(await apiKeys.create(managerOf(request), request.body)),
  )

  app.post(
    '/:id/rotate',
    keyRoute('apiKey.manage', ApiKeySecretSchema, { params: UuidParamsSchema }),
    async (request) => apiKeys.rotate(managerOf(request), request.params.id),
  )

  app.delete('/:id', keyRoute('apiKey.manage', ApiKeySchema, { params: UuidParamsSchema }), async (request) =>
    apiKeys.revoke(managerOf(request), request.params.id),
  )
}

/** The company setting: whether its users may make keys for it (an admin's). */
export const companyApiKeysRoutes: FastifyPluginAsyncTypebox<{ apiKeys: ApiKeysService }> = async (
  app,
  { apiKeys },
) => {
  const tags = ['api keys']
  app.get(
    '/:id/api-keys',
    route('company.update', {
      tags,
      params: IdParamsSchema,
      response: { 200: ApiKeysAllowedSchema, ...errorResponses(401, 403, 404) },
    }),
    async (request) => apiKeys.companyAllows(request.params.id),
  )
  app.put(
    '/:id/api-keys',
    route('company.update', {
      tags,
      params: IdParamsSchema,
      body: ApiKeysAllowedSchema,
      response: { 200: ApiKeysAllowedSchema, ...errorResponses(400, 401, 403, 404) },
    }),
    async (request) => apiKeys.setCompanyAllows(managerOf(request), request.params.id, request.body.allowed),
  )
}
