import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { Database } from '../../db/client'

const StatusSchema = Type.Object({ status: Type.String() })

/** Liveness needs nothing; readiness proves the database answers (docs/architecture.md). */
const healthRoutes: FastifyPluginAsyncTypebox<{ database: Pick<Database, 'ping'> }> = async (app, { database }) => {
  app.get(
    '/health',
    { config: { public: true }, schema: { tags: ['operations'], response: { 200: StatusSchema } } },
    async () => ({ status: 'ok' }),
  )

  app.get(
    '/ready',
    {
      config: { public: true },
      schema: { tags: ['operations'], response: { 200: StatusSchema, 503: StatusSchema } },
    },
    async (request, reply) => {
      if (app.closing) return reply.code(503).send({ status: 'shutting down' })
      try {
        await database.ping()
        return { status: 'ready' }
      } catch (error) {
        request.log.warn({ err: error }, 'readiness check failed')
        return reply.code(503).send({ status: 'database unavailable' })
      }
    },
  )
}

export default healthRoutes
