import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import {
  DispatchHistoryQuerySchema,
  DispatchHistoryResponseSchema,
  HistoryExportQuerySchema,
  IdParamsSchema,
} from '@portal/shared'
import { errorResponses } from '../../lib/error-responses'
import { route } from '../../lib/route'
import { requireUser } from '../../plugins/app/auth'
import { exportFileResponse, sendExport } from '../reports/report-export.routes'
import type { DispatchHistoryService } from './dispatch-history.service'

const errors = errorResponses(400, 401, 403, 404)

/** GET /api/dispatches/{id}/history (newest first, keyset pages) and …/history/export (CSV or .xlsx). */
const dispatchHistoryRoutes: FastifyPluginAsyncTypebox<{ history: DispatchHistoryService }> = async (
  app,
  { history },
) => {
  app.get(
    '/:id/history',
    route('dispatch.readHistory', {
      tags: ['dispatches'],
      summary: "A dispatch's licence history: cap, expiry, enabled state and counter resets, newest first",
      params: IdParamsSchema,
      querystring: DispatchHistoryQuerySchema,
      response: { 200: DispatchHistoryResponseSchema, ...errors },
    }),
    async (request) => history.page(requireUser(request), request.params.id, request.query),
  )

  app.get(
    '/:id/history/export',
    route('dispatch.readHistory', {
      tags: ['dispatches'],
      summary: "A dispatch's whole licence history as CSV or .xlsx",
      params: IdParamsSchema,
      querystring: HistoryExportQuerySchema,
      response: { ...exportFileResponse, ...errors },
    }),
    async (request, reply) =>
      sendExport(reply, await history.exportFile(requireUser(request), request.params.id, request.query.format)),
  )
}

export default dispatchHistoryRoutes
