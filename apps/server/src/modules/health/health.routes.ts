import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import { AppError } from '../../lib/app-error'
import type { PortalRole } from '../../config'
import type { Database } from '../../db/client'
import type { JobEngineStatus } from '../jobs/job-engine'
import { route } from '../../lib/route'

const NodeSchema = Type.Object({
  status: Type.String(),
  role: Type.Union([Type.Literal('all'), Type.Literal('web'), Type.Literal('worker')]),
  database: Type.Union([Type.Literal('pglite'), Type.Literal('postgres')]),
  jobs: Type.Object({
    state: Type.String({ description: 'stopped, starting, running, stopping or failed' }),
    working: Type.Boolean({ description: 'This node runs jobs (roles all and worker); web nodes only send them.' }),
    error: Type.Optional(Type.String()),
  }),
})

/**
 * Liveness needs nothing; readiness proves the database answers and the job engine runs
 * (docs/architecture.md). Both say what this node is: its role, its database and its job engine.
 */
const healthRoutes: FastifyPluginAsyncTypebox<{
  database: Pick<Database, 'ping' | 'kind'>
  role: PortalRole
  jobs: () => JobEngineStatus
}> = async (app, { database, role, jobs }) => {
  const node = (status: string) => ({ status, role, database: database.kind, jobs: jobs() })

  app.get('/health', route('public', { tags: ['operations'], response: { 200: NodeSchema } }), async () => node('ok'))

  const ready = route('public', { tags: ['operations'], response: { 200: NodeSchema, 503: NodeSchema } })
  for (const url of ['/ready', '/health/ready']) {
    app.get(url, ready, async (request, reply) => {
      if (app.closing) return reply.code(503).send(node('shutting down'))
      try {
        await database.ping()
      } catch (error) {
        request.log.warn({ err: error }, 'readiness check failed')
        return reply.code(503).send(node('database unavailable'))
      }
      if (jobs().state !== 'running') return reply.code(503).send(node('job engine not running'))
      return node('ready')
    })
  }
}

/** PORTAL_ROLE=worker: every request but the health checks is another node's (404). */
export function serveHealthOnly(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    if (!/^\/api\/(health|ready)(\/|\?|$)/.test(request.url)) {
      throw new AppError(
        'NOT_FOUND',
        'This node runs background jobs only (PORTAL_ROLE=worker); it serves /api/health.',
      )
    }
  })
}

export default healthRoutes
