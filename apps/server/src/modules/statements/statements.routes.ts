import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { IdParamsSchema, StatementExportQuerySchema, StatementQuerySchema, StatementSchema } from '@portal/shared'
import { moduleRoute } from '../../lib/route'
import { requireUser } from '../../plugins/app/auth'
import { exportRoute, sendExport } from '../reports/report-export.routes'
import type { StatementsService } from './statements.service'

const statementRoute = moduleRoute('statements')

/** GET /api/statements/{companyId}?month=yyyy-MM|year=yyyy and …/export (CSV or .xlsx). */
const statementsRoutes: FastifyPluginAsyncTypebox<{ statements: StatementsService }> = async (app, { statements }) => {
  app.get(
    '/:id',
    statementRoute('statement.read', StatementSchema, {
      summary: "A company's usage statement of a month or a year, per dispatch and in total",
      params: IdParamsSchema,
      querystring: StatementQuerySchema,
    }),
    async (request) => statements.statement(requireUser(request), request.params.id, request.query),
  )

  app.get(
    '/:id/export',
    exportRoute('statements', 'statement.read', {
      summary: "A company's usage statement as CSV or .xlsx",
      params: IdParamsSchema,
      querystring: StatementExportQuerySchema,
    }),
    async (request, reply) => {
      const { format, ...period } = request.query
      return sendExport(reply, await statements.exportFile(requireUser(request), request.params.id, period, format))
    },
  )
}

export default statementsRoutes
