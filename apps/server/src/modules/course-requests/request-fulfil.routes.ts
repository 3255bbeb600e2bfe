import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import {
  CourseRequestSchema,
  DispatchConflictSchema,
  ErrorResponseSchema,
  FulfilCourseRequestBodySchema,
  IdParamsSchema,
} from '@portal/shared'
import { route } from '../../lib/route'
import { actorOf, requireUser } from '../../plugins/app/auth'
import { withConflictAnswer } from '../dispatches/dispatch-conflict'
import type { RequestFulfilService } from './request-fulfil.service'

/** POST /api/course-requests/{id}/fulfil: create a dispatch, or add licenses, in one step. */
const requestFulfilRoutes: FastifyPluginAsyncTypebox<{ fulfilments: RequestFulfilService }> = async (
  app,
  { fulfilments },
) => {
  app.post(
    '/:id/fulfil',
    route('courseRequest.fulfil', {
      tags: ['course-requests'],
      summary: 'Fulfil a course request: create its dispatch or add its licenses, and mark it PROCESSED',
      params: IdParamsSchema,
      body: FulfilCourseRequestBodySchema,
      response: {
        200: CourseRequestSchema,
        400: ErrorResponseSchema,
        401: ErrorResponseSchema,
        403: ErrorResponseSchema,
        404: ErrorResponseSchema,
        409: DispatchConflictSchema,
        502: ErrorResponseSchema,
        503: ErrorResponseSchema,
      },
    }),
    async (request, reply) =>
      withConflictAnswer(reply, () =>
        fulfilments.fulfil(requireUser(request), request.params.id, request.body, {
          actor: actorOf(request),
          ip: request.ip,
        }),
      ),
  )
}

export default requestFulfilRoutes
