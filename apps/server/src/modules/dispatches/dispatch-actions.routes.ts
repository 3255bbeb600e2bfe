import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import {
  CreateDispatchBodySchema,
  DispatchConflictSchema,
  DispatchSchema,
  IdempotencyHeadersSchema,
  IdParamsSchema,
} from '@portal/shared'
import { errorResponses } from '../../lib/error-responses'
import { route } from '../../lib/route'
import { actorOf, requestChangeActor, requireUser } from '../../plugins/app/auth'
import type { DispatchCountService } from './dispatch-count.service'
import { withConflictAnswer } from './dispatch-conflict'
import type { DispatchCreateService } from './dispatch-create.service'

const errors = errorResponses(400, 401, 403, 404, 502, 503)

/** POST /api/dispatches and POST /api/dispatches/{id}/registration-count/reset (admin). */
const dispatchActionsRoutes: FastifyPluginAsyncTypebox<{
  creates: DispatchCreateService
  counts: DispatchCountService
}> = async (app, { creates, counts }) => {
  const contextOf = (request: FastifyRequest) => ({
    viewer: requireUser(request),
    actor: actorOf(request),
    changeActor: requestChangeActor(request),
    ip: request.ip,
  })

  app.post(
    '/',
    route('dispatch.create', {
      tags: ['dispatches'],
      summary: 'Create a dispatch of a course to a company (SCORM Cloud first, then the mirror)',
      body: CreateDispatchBodySchema,
      headers: IdempotencyHeadersSchema,
      response: { 201: DispatchSchema, ...errors, 409: DispatchConflictSchema },
    }),
    async (request, reply) =>
      withConflictAnswer(reply, async () => {
        const key = request.headers['idempotency-key']
        const created = await creates.create(request.body, contextOf(request), key)
        return reply.code(201).send(created)
      }),
  )

  app.post(
    '/:id/registration-count/reset',
    route('dispatch.resetCount', {
      tags: ['dispatches'],
      summary: "Reset a dispatch's registration counter (renew its licenses)",
      params: IdParamsSchema,
      response: { 200: DispatchSchema, ...errors },
    }),
    async (request) => counts.reset(request.params.id, contextOf(request)),
  )
}

export default dispatchActionsRoutes
