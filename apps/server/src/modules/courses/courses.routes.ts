import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import {
  CourseDetailsSchema,
  CourseListResponseSchema,
  CourseVisibilityResponseSchema,
  DESCRIPTION_MAX_BYTES,
  ErrorResponseSchema,
  IdParamsSchema,
  UpdateCourseDetailsSchema,
  UpdateCourseVisibilitySchema,
} from '@portal/shared'
import { requestErrors } from '../../lib/error-responses'
import { actorOf, requireUser } from '../../plugins/app/auth'
import type { CourseEditService } from './course-edit.service'
import type { CoursesService, RequestContext } from './courses.service'
import { moduleRoute } from '../../lib/route'

const courseRoute = moduleRoute('courses')

/**
 * Room for a description at its limit (DESCRIPTION_MAX_BYTES) plus JSON escaping and the other
 * fields, so an oversized description gets the service's clear 400 rather than a bare 413.
 */
export const COURSE_DETAILS_BODY_LIMIT = DESCRIPTION_MAX_BYTES + 256 * 1024

const contextOf = (request: FastifyRequest): RequestContext => ({ actor: actorOf(request), ip: request.ip })

/**
 * Courses (docs/product-rules.md §7), registered under /api. GET /dispatches/courses is a static
 * route, which find-my-way matches before the dispatches plugin's /dispatches/:id
 * (courses.routes.test.ts checks it). GET /dispatches/courses/sync lives in the sync module.
 */
const coursesRoutes: FastifyPluginAsyncTypebox<{ courses: CoursesService; edits: CourseEditService }> = async (
  app,
  { courses, edits },
) => {
  app.get('/dispatches/courses', courseRoute('course.read', CourseListResponseSchema), async (request) =>
    courses.list(requireUser(request)),
  )

  app.get(
    '/courses/:id/details',
    courseRoute('course.read', CourseDetailsSchema, { params: IdParamsSchema }),
    async (request) => courses.view(requireUser(request), request.params.id, contextOf(request)),
  )

  app.put(
    '/courses/:id/details',
    {
      config: { permission: 'course.edit' },
      bodyLimit: COURSE_DETAILS_BODY_LIMIT,
      schema: {
        tags: ['courses'],
        params: IdParamsSchema,
        body: UpdateCourseDetailsSchema,
        response: { 200: CourseDetailsSchema, ...requestErrors, 413: ErrorResponseSchema },
      },
    },
    async (request) => edits.updateDetails(requireUser(request), request.params.id, request.body, contextOf(request)),
  )

  app.put(
    '/courses/:id/visibility',
    courseRoute('course.edit', CourseVisibilityResponseSchema, {
      params: IdParamsSchema,
      body: UpdateCourseVisibilitySchema,
    }),
    async (request) =>
      edits.setVisibility(requireUser(request), request.params.id, request.body.isVisible, contextOf(request)),
  )
}

export default coursesRoutes
