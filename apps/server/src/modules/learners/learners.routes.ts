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
import { sendJsonAnswer } from '../../lib/json-answer'
import { exportContextOf, exportErrors, exportRoute, sendExport } from '../reports/report-export.routes'
import type { LearnersService } from './learners.service'
import { moduleRoute } from '../../lib/route'

const learnerRoute = moduleRoute('learners', exportErrors)

/**
 * /api/learners: a company's learners across its dispatches, their export and one
 * learner's registrations. A client reads its own company whatever companyId says; staff name
 * the company (none named: an empty answer).
 */
const learnersRoutes: FastifyPluginAsyncTypebox<{ learners: LearnersService }> = async (app, { learners }) => {
  app.get(
    '/',
    learnerRoute('learner.read', LearnerListResponseSchema, { querystring: LearnerListQuerySchema }),
    async (request, reply) => sendJsonAnswer(reply, await learners.list(requireUser(request), request.query)),
  )

  app.get(
    '/export',
    exportRoute('learners', 'learner.read', {
      description: "Every learner of the list's filters, in its order, as CSV or .xlsx.",
      querystring: LearnerExportQuerySchema,
    }),
    async (request, reply) =>
      sendExport(reply, await learners.export(requireUser(request), exportContextOf(request), request.query)),
  )

  app.get(
    '/:email/registrations',
    learnerRoute('learner.read', LearnerRegistrationsResponseSchema, {
      description:
        'The learner’s registrations in the company (the e-mail; `id:<learner id>` for a learner without one).',
      params: LearnerParamsSchema,
      querystring: LearnerRegistrationsQuerySchema,
    }),
    async (request) => learners.registrations(requireUser(request), request.params.email, request.query.companyId),
  )
}

export default learnersRoutes
