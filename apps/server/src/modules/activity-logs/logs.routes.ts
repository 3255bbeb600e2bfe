import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { LOG_CSV_FILENAME, LogFilterSchema, LogListQuerySchema, LogListResponseSchema } from '@portal/shared'
import { errorResponses } from '../../lib/error-responses'
import { sendJsonAnswer } from '../../lib/json-answer'
import { CSV_MEDIA_TYPE, fileResponse } from '../../lib/file-response'
import { readAhead, textStream } from '../../lib/table-export'
import { actorOf } from '../../plugins/app/auth'
import type { LogsService, ReaderContext } from './logs.service'
import { route } from '../../lib/route'

const errors = errorResponses(400, 401, 403)

const contextOf = (request: FastifyRequest): ReaderContext => ({ actor: actorOf(request), ip: request.ip })

/** GET /api/logs and its CSV export (docs/product-rules.md §2 Activity Logs, §7; admins only). */
const logsRoutes: FastifyPluginAsyncTypebox<{ logs: LogsService }> = async (app, { logs }) => {
  app.get(
    '/',
    route('log.read', {
      tags: ['activity-logs'],
      querystring: LogListQuerySchema,
      response: { 200: LogListResponseSchema, ...errors },
    }),
    async (request, reply) => sendJsonAnswer(reply, await logs.list(request.query, contextOf(request))),
  )

  app.get(
    '/export.csv',
    route('log.read', {
      tags: ['activity-logs'],
      querystring: LogFilterSchema,
      response: { ...fileResponse('The filtered logs as CSV.', CSV_MEDIA_TYPE), ...errors },
    }),
    async (request, reply) => {
      // The header and the first rows are read before the answer starts, so a query
      // these filters break is a JSON error, not a file cut short. A failure after the first
      // byte destroys the connection without the closing chunk: the browser reports the download
      // as failed, never as a complete file (test/security/export-failure.test.ts).
      const body = textStream(await readAhead(logs.exportCsv(request.query, contextOf(request)), 2))
      return reply
        .header('content-type', 'text/csv; charset=utf-8; header=present')
        .header('content-disposition', `attachment; filename="${LOG_CSV_FILENAME}"`)
        .header('cache-control', 'no-store')
        .send(body as never) // a stream: sent as it is, never through the response schemas
    },
  )
}

export default logsRoutes
