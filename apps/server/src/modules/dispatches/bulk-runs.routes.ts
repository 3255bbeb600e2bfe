import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { BulkActionBodySchema, BulkRunSchema, UuidParamsSchema } from '@portal/shared'
import { Type } from 'typebox'
import { errorResponses } from '../../lib/error-responses'
import { route } from '../../lib/route'
import { actorOf, requireUser } from '../../plugins/app/auth'
import type { BulkRunsService } from './bulk-runs.service'

const errors = errorResponses(400, 401, 403, 404)

/** /api/dispatches/bulk: staff who may edit dispatches start a bulk action and follow its progress. */
const bulkRunsRoutes: FastifyPluginAsyncTypebox<{ bulk: BulkRunsService; now: () => Date }> = async (
  app,
  { bulk, now },
) => {
  app.post(
    '/bulk',
    route('dispatch.update', {
      tags: ['dispatches'],
      body: BulkActionBodySchema,
      response: { 202: Type.Object({ id: Type.String(), total: Type.Integer() }), ...errors },
    }),
    async (request, reply) =>
      reply.code(202).send(await bulk.start(requireUser(request), actorOf(request), request.body, now())),
  )

  app.get(
    '/bulk/:id',
    route('dispatch.update', {
      tags: ['dispatches'],
      params: UuidParamsSchema,
      response: { 200: BulkRunSchema, ...errors },
    }),
    async (request) => bulk.get(request.params.id),
  )
}

export default bulkRunsRoutes
