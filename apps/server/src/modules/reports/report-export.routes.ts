import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest, FastifySchema } from 'fastify'
import { IdParamsSchema, type Permission, ReportExportQuerySchema } from '@portal/shared'
import { errorResponses } from '../../lib/error-responses'
import { CSV_MEDIA_TYPE, fileResponse, XLSX_MEDIA_TYPE } from '../../lib/file-response'
import type { ExportFile } from '../../lib/table-export'
import { actorOf, requireUser } from '../../plugins/app/auth'
import type { ExportContext } from '../../lib/export-audit'
import type { ReportExportService } from './report-export'
import { route } from '../../lib/route'

export const exportErrors = errorResponses(400, 401, 403, 404)

/** The OpenAPI description of a file answer: CSV or an .xlsx workbook, per the query's format. */
export const exportFileResponse = fileResponse('The file: CSV or an .xlsx workbook.', CSV_MEDIA_TYPE, XLSX_MEDIA_TYPE)

/** An export route's options: the file answer and the usual error answers, under its module's tag. */
export function exportRoute<S extends Omit<FastifySchema, 'tags' | 'response'>>(
  tag: string,
  permission: Permission,
  schema: S,
) {
  return route(permission, { tags: [tag], ...schema, response: { ...exportFileResponse, ...exportErrors } })
}

export const exportContextOf = (request: FastifyRequest): ExportContext => ({
  actor: actorOf(request),
  ip: request.ip,
})

/** A streamed download: sent as it is, never through the response schemas. */
export function sendExport(reply: FastifyReply, file: ExportFile) {
  return reply
    .header('content-type', file.contentType)
    .header('content-disposition', `attachment; filename="${file.filename}"`)
    .header('cache-control', 'no-store')
    .send(file.body as never)
}

/** GET /api/reports/dispatch/{id}/export: the completion report as CSV or .xlsx. */
const reportExportRoutes: FastifyPluginAsyncTypebox<{ exports: ReportExportService }> = async (app, { exports }) => {
  app.get(
    '/dispatch/:id/export',
    exportRoute('reports', 'report.read', {
      description: "Every row of the completion report's filters (not one page), as CSV or .xlsx.",
      params: IdParamsSchema,
      querystring: ReportExportQuerySchema,
    }),
    async (request, reply) => {
      const file = await exports.exportDispatch(
        requireUser(request),
        exportContextOf(request),
        request.params.id,
        request.query,
      )
      return sendExport(reply, file)
    },
  )
}

export default reportExportRoutes
