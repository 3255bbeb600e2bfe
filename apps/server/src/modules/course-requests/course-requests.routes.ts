import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import {
  CourseRequestListQuerySchema,
  CourseRequestListSchema,
  CourseRequestSchema,
  CreateCourseRequestSchema,
  ErrorResponseSchema,
  UpdateCourseRequestStatusSchema,
  IdParamsSchema,
} from '@portal/shared'
import { requestErrors } from '../../lib/error-responses'
import { moduleRoute, route } from '../../lib/route'
import { actorOf, requireUser } from '../../plugins/app/auth'
import type { CourseRequestsService, RequestContext } from './course-requests.service'

const requestRoute = moduleRoute('course-requests')

const contextOf = (request: FastifyRequest): RequestContext => ({ actor: actorOf(request), ip: request.ip })

/** /api/course-requests (docs/product-rules.md §7). */
const courseRequestsRoutes: FastifyPluginAsyncTypebox<{ requests: CourseRequestsService }> = async (
  app,
  { requests },
) => {
  app.get(
    '/',
    // Admin and sales read all, a client its own, internal nothing: no single permission of
    // docs/product-rules.md §6 spans those three roles, so the route admits signed-in users (course.read) and
    // the service applies courseRequest.readAll / courseRequest.readOwn, answering 403 otherwise.
    requestRoute('course.read', CourseRequestListSchema, { querystring: CourseRequestListQuerySchema }),
    async (request) => requests.list(requireUser(request), request.query),
  )

  app.post(
    '/',
    route('courseRequest.create', {
      tags: ['course-requests'],
      body: CreateCourseRequestSchema,
      response: { 201: CourseRequestSchema, ...requestErrors, 409: ErrorResponseSchema },
    }),
    async (request, reply) => {
      const created = await requests.create(requireUser(request), request.body, contextOf(request))
      return reply.code(201).send(created)
    },
  )

  app.put(
    '/:id/status',
    requestRoute('courseRequest.updateStatus', CourseRequestSchema, {
      params: IdParamsSchema,
      body: UpdateCourseRequestStatusSchema,
    }),
    async (request) => requests.updateStatus(requireUser(request), request.params.id, request.body, contextOf(request)),
  )
}

export default courseRequestsRoutes
