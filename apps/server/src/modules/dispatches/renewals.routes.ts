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
import { errorResponses, requestErrors } from '../../lib/error-responses'
import { moduleRoute, route } from '../../lib/route'
import { actorOf, requireUser } from '../../plugins/app/auth'
import type { RenewalsService } from './renewals.service'

const renewalRoute = moduleRoute('renewals')
/** Cancelling answers 409 too, when the renewal has already run. */
const cancelRoute = moduleRoute('renewals', { ...requestErrors, ...errorResponses(409) })

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
      response: { 201: ScheduleRenewalResponseSchema, ...requestErrors },
    }),
    async (request, reply) => {
      const result = await renewals.schedule(requireUser(request), actorOf(request), request.body, now())
      return reply.code(201).send(result)
    },
  )

  app.get(
    '/renewals',
    renewalRoute('dispatch.update', RenewalListSchema, {
      querystring: Type.Object({ companyId: Type.Optional(ProviderIdSchema) }),
    }),
    async (request) => renewals.list(request.query.companyId, now()),
  )

  app.delete(
    '/renewals/:id',
    cancelRoute('dispatch.update', RenewalSchema, {
      params: UuidParamsSchema,
    }),
    async (request) => renewals.cancel(request.params.id, now()),
  )
}

export default renewalsRoutes
