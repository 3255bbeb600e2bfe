import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import {
  DispatchHistoryQuerySchema,
  DispatchHistoryResponseSchema,
  HistoryExportQuerySchema,
  IdParamsSchema,
} from '@portal/shared'
import { moduleRoute } from '../../lib/route'
import { requireUser } from '../../plugins/app/auth'
import { exportRoute, sendExport } from '../reports/report-export.routes'
import type { DispatchHistoryService } from './dispatch-history.service'

const historyRoute = moduleRoute('dispatches')

/** GET /api/dispatches/{id}/history (newest first, keyset pages) and …/history/export (CSV or .xlsx). */
const dispatchHistoryRoutes: FastifyPluginAsyncTypebox<{ history: DispatchHistoryService }> = async (
  app,
  { history },
) => {
  app.get(
    '/:id/history',
    historyRoute('dispatch.readHistory', DispatchHistoryResponseSchema, {
      summary: "A dispatch's licence history: cap, expiry, enabled state and counter resets, newest first",
      params: IdParamsSchema,
      querystring: DispatchHistoryQuerySchema,
    }),
    async (request) => history.page(requireUser(request), request.params.id, request.query),
  )

  app.get(
    '/:id/history/export',
    exportRoute('dispatches', 'dispatch.readHistory', {
      summary: "A dispatch's whole licence history as CSV or .xlsx",
      params: IdParamsSchema,
      querystring: HistoryExportQuerySchema,
    }),
    async (request, reply) =>
      sendExport(reply, await history.exportFile(requireUser(request), request.params.id, request.query.format)),
  )
}

export default dispatchHistoryRoutes
