import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { IdParamsSchema, RegistrationCountSchema, ReportQuerySchema, ReportResponseSchema } from '@portal/shared'
import { errorResponses } from '../../lib/error-responses'
import { sendJsonAnswer } from '../../lib/json-answer'
import { requireUser } from '../../plugins/app/auth'
import type { ReportsService } from './reports.service'
import { route } from '../../lib/route'

const errors = errorResponses(400, 401, 403, 404)

/** /api/reports (docs/product-rules.md §7). */
const reportsRoutes: FastifyPluginAsyncTypebox<{ reports: ReportsService }> = async (app, { reports }) => {
  app.get(
    '/registrations/count',
    route('report.readCount', { tags: ['reports'], response: { 200: RegistrationCountSchema, ...errors } }),
    async () => reports.registrationCount(),
  )

  app.get(
    '/dispatch/:id',
    route('report.read', {
      tags: ['reports'],
      params: IdParamsSchema,
      querystring: ReportQuerySchema,
      response: { 200: ReportResponseSchema, ...errors },
    }),
    async (request, reply) =>
      sendJsonAnswer(reply, await reports.dispatchReport(requireUser(request), request.params.id, request.query)),
  )
}

export default reportsRoutes
