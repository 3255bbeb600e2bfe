import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import {
  LearnerExportQuerySchema,
  LearnerListQuerySchema,
  LearnerListResponseSchema,
  LearnerParamsSchema,
  LearnerRegistrationsQuerySchema,
  LearnerRegistrationsResponseSchema,
} from '@portal/shared'
import { requireUser } from '../../plugins/app/auth'
import { exportContextOf, exportErrors, exportFileResponse, sendExport } from '../reports/report-export.routes'
import type { LearnersService } from './learners.service'
import { route } from '../../lib/route'

/**
 * /api/learners: a company's learners across its dispatches, their export and one
 * learner's registrations. A client reads its own company whatever companyId says; staff name
 * the company (none named: an empty answer).
 */
const learnersRoutes: FastifyPluginAsyncTypebox<{ learners: LearnersService }> = async (app, { learners }) => {
  app.get(
    '/',
    route('learner.read', {
      tags: ['learners'],
      querystring: LearnerListQuerySchema,
      response: { 200: LearnerListResponseSchema, ...exportErrors },
    }),
    async (request) => learners.list(requireUser(request), request.query),
  )

  app.get(
    '/export',
    route('learner.read', {
      tags: ['learners'],
      description: "Every learner of the list's filters, in its order, as CSV or .xlsx.",
      querystring: LearnerExportQuerySchema,
      response: { ...exportFileResponse, ...exportErrors },
    }),
    async (request, reply) =>
      sendExport(reply, await learners.export(requireUser(request), exportContextOf(request), request.query)),
  )

  app.get(
    '/:email/registrations',
    route('learner.read', {
      tags: ['learners'],
      description:
        'The learner’s registrations in the company (the e-mail; `id:<learner id>` for a learner without one).',
      params: LearnerParamsSchema,
      querystring: LearnerRegistrationsQuerySchema,
      response: { 200: LearnerRegistrationsResponseSchema, ...exportErrors },
    }),
    async (request) => learners.registrations(requireUser(request), request.params.email, request.query.companyId),
  )
}

export default learnersRoutes
