import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import {
  ProviderIdSchema,
  RenewalListSchema,
  RenewalSchema,
  ScheduleRenewalBodySchema,
  ScheduleRenewalResponseSchema,
  UuidParamsSchema,
} from '@portal/shared'
import { Type } from 'typebox'
import { errorResponses } from '../../lib/error-responses'
import { route } from '../../lib/route'
import { actorOf, requireUser } from '../../plugins/app/auth'
import type { RenewalsService } from './renewals.service'

const errors = errorResponses(400, 401, 403, 404)

/**
 * /api/dispatches/renewals: staff who may edit dispatches schedule, list and cancel renewals.
 * Static paths: they win over /api/dispatches/:id.
 */
const renewalsRoutes: FastifyPluginAsyncTypebox<{ renewals: RenewalsService; now: () => Date }> = async (
  app,
  { renewals, now },
) => {
  app.post(
    '/renewals',
    route('dispatch.update', {
      tags: ['renewals'],
      body: ScheduleRenewalBodySchema,
      response: { 201: ScheduleRenewalResponseSchema, ...errors },
    }),
    async (request, reply) => {
      const result = await renewals.schedule(requireUser(request), actorOf(request), request.body, now())
      return reply.code(201).send(result)
    },
  )

  app.get(
    '/renewals',
    route('dispatch.update', {
      tags: ['renewals'],
      querystring: Type.Object({ companyId: Type.Optional(ProviderIdSchema) }),
      response: { 200: RenewalListSchema, ...errors },
    }),
    async (request) => renewals.list(request.query.companyId, now()),
  )

  app.delete(
    '/renewals/:id',
    route('dispatch.update', {
      tags: ['renewals'],
      params: UuidParamsSchema,
      response: { 200: RenewalSchema, ...errors, ...errorResponses(409) },
    }),
    async (request) => renewals.cancel(request.params.id, now()),
  )
}

export default renewalsRoutes
