import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { BulkActionBodySchema, BulkRunSchema, UuidParamsSchema } from '@portal/shared'
import { Type } from 'typebox'
import { requestErrors } from '../../lib/error-responses'
import { moduleRoute, route } from '../../lib/route'
import { actorOf, requireUser } from '../../plugins/app/auth'
import type { BulkRunsService } from './bulk-runs.service'

const bulkRoute = moduleRoute('dispatches')

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
      response: { 202: Type.Object({ id: Type.String(), total: Type.Integer() }), ...requestErrors },
    }),
    async (request, reply) =>
      reply.code(202).send(await bulk.start(requireUser(request), actorOf(request), request.body, now())),
  )

  app.get('/bulk/:id', bulkRoute('dispatch.update', BulkRunSchema, { params: UuidParamsSchema }), async (request) =>
    bulk.get(request.params.id),
  )
}

export default bulkRunsRoutes
