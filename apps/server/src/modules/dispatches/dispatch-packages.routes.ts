import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { CompanyPackagesQuerySchema, IdParamsSchema, ZipBodySchema } from '@portal/shared'
import { errorResponses } from '../../lib/error-responses'
import { moduleRoute } from '../../lib/route'
import { actorOf, requireUser } from '../../plugins/app/auth'
import type { DispatchPackagesService, PackageDownload } from './dispatch-packages.service'

const packageRoute = moduleRoute('dispatches', errorResponses(400, 401, 403, 404, 502, 503))
/** OpenAPI: a zip body (a stream is sent as it is, never through a serializer). */
const zip = { description: 'The package zip', content: { 'application/zip': { schema: ZipBodySchema } } }

/**
 * Aborts the upstream request when the browser goes away before the download ends,
 * so a cancelled download stops costing the provider and us at once.
 */
function abortWhenGone(reply: FastifyReply): AbortSignal {
  const controller = new AbortController()
  // The response closes early when the connection goes (client gone, or the server cut it).
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort()
  })
  return controller.signal
}

function sendZip(reply: FastifyReply, download: PackageDownload) {
  void reply
    .header('content-type', 'application/zip')
    .header('content-disposition', `attachment; filename="${download.fileName}"`)
    .header('cache-control', 'no-store')
  if (download.contentLength !== null) void reply.header('content-length', download.contentLength)
  // The provider's bytes as they come: backpressure from the browser reaches the provider.
  return reply.send(download.body as never)
}

/** /api/dispatches/{id}/package and /api/dispatches/packages. */
const dispatchPackagesRoutes: FastifyPluginAsyncTypebox<{ packages: DispatchPackagesService }> = async (
  app,
  { packages },
) => {
  const contextOf = (request: FastifyRequest) => ({
    viewer: requireUser(request),
    actor: actorOf(request),
    ip: request.ip,
  })

  app.get(
    '/packages',
    packageRoute('dispatch.download', zip, {
      summary: "All of a company's dispatch packages in one zip",
      querystring: CompanyPackagesQuerySchema,
    }),
    async (request, reply) =>
      sendZip(reply, await packages.companyPackages(request.query.companyId, contextOf(request), abortWhenGone(reply))),
  )

  app.get(
    '/:id/package',
    packageRoute('dispatch.download', zip, { summary: "A dispatch's SCORM 1.2 package", params: IdParamsSchema }),
    async (request, reply) =>
      sendZip(reply, await packages.dispatchPackage(request.params.id, contextOf(request), abortWhenGone(reply))),
  )
}

export default dispatchPackagesRoutes
