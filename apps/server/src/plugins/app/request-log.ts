import type { FastifyInstance } from 'fastify'

/**
 * One log line per answered request, with its method, path, caller address, status and time
 * (Fastify's own request logging is off, so each request logs once, after its answer).
 */
export function logRequests(app: FastifyInstance): void {
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        req: { method: request.method, url: request.url, remoteAddress: request.ip },
        res: { statusCode: reply.statusCode },
        responseTime: Math.round(reply.elapsedTime * 10) / 10,
      },
      'request completed',
    )
  })
}
