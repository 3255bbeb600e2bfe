import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { IdParamsSchema, StatementExportQuerySchema, StatementQuerySchema, StatementSchema } from '@portal/shared'
import { errorResponses } from '../../lib/error-responses'
import { route } from '../../lib/route'
import { requireUser } from '../../plugins/app/auth'
import { exportFileResponse, sendExport } from '../reports/report-export.routes'
import type { StatementsService } from './statements.service'

const errors = errorResponses(400, 401, 403, 404)

/** GET /api/statements/{companyId}?month=yyyy-MM|year=yyyy and …/export (CSV or .xlsx). */
const statementsRoutes: FastifyPluginAsyncTypebox<{ statements: StatementsService }> = async (app, { statements }) => {
  app.get(
    '/:id',
    route('statement.read', {
      tags: ['statements'],
      summary: "A company's usage statement of a month or a year, per dispatch and in total",
      params: IdParamsSchema,
      querystring: StatementQuerySchema,
      response: { 200: StatementSchema, ...errors },
    }),
    async (request) => statements.statement(requireUser(request), request.params.id, request.query),
  )

  app.get(
    '/:id/export',
    route('statement.read', {
      tags: ['statements'],
      summary: "A company's usage statement as CSV or .xlsx",
      params: IdParamsSchema,
      querystring: StatementExportQuerySchema,
      response: { ...exportFileResponse, ...errors },
    }),
    async (request, reply) => {
      const { format, ...period } = request.query
      return sendExport(reply, await statements.exportFile(requireUser(request), request.params.id, period, format))
    },
  )
}

export default statementsRoutes
