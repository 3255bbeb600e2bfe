import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import {
  DestinationListSchema,
  DispatchListQuerySchema,
  DispatchListResponseSchema,
  DispatchMirrorBehindSchema,
  DispatchSchema,
  ErrorResponseSchema,
  IdParamsSchema,
  UpdateDispatchBodySchema,
} from '@portal/shared'
import { requestErrors } from '../../lib/error-responses'
import { moduleRoute, route } from '../../lib/route'
import { sendJsonAnswer } from '../../lib/json-answer'
import { actorOf, requestChangeActor, requireUser } from '../../plugins/app/auth'
import { EDIT_MESSAGES, type DispatchUpdateService } from './dispatch-update.service'
import type { DispatchesService } from './dispatches.service'

const dispatchRoute = moduleRoute('dispatches')

/**
 * /api/dispatches (docs/product-rules.md §7). `/destinations` is a static route: find-my-way matches
 * static segments before `/:id`, whichever plugin registers them (so does a colleague's
 * `/courses`); dispatches.routes.test.ts checks it.
 */
const dispatchesRoutes: FastifyPluginAsyncTypebox<{
  dispatches: DispatchesService
  updates: DispatchUpdateService
}> = async (app, { dispatches, updates }) => {
  app.get(
    '/',
    dispatchRoute('dispatch.read', DispatchListResponseSchema, { querystring: DispatchListQuerySchema }),
    async (request, reply) => sendJsonAnswer(reply, await dispatches.list(requireUser(request), request.query)),
  )

  app.get('/destinations', dispatchRoute('destination.read', DestinationListSchema), async () =>
    dispatches.destinations(),
  )

  app.get('/:id', dispatchRoute('dispatch.read', DispatchSchema, { params: IdParamsSchema }), async (request) =>
    dispatches.get(requireUser(request), request.params.id),
  )

  app.put(
    '/:id',
    route('dispatch.update', {
      tags: ['dispatches'],
      params: IdParamsSchema,
      body: UpdateDispatchBodySchema,
      response: {
        200: DispatchSchema,
        202: DispatchMirrorBehindSchema,
        ...requestErrors,
        502: ErrorResponseSchema,
        503: ErrorResponseSchema,
      },
    }),
    async (request, reply) => {
      const outcome = await updates.update(request.params.id, request.body, {
        viewer: requireUser(request),
        actor: actorOf(request),
        changeActor: requestChangeActor(request),
        ip: request.ip,
        log: request.log,
      })
      // Saved upstream, not yet in the mirror; the answer says so rather than failing.
      if (outcome.mirrorBehind)
        return reply.code(202).send({ ...outcome.dispatch, message: EDIT_MESSAGES.mirrorBehind })
      return outcome.dispatch
    },
  )
}

export default dispatchesRoutes
