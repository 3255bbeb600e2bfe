import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { TSchema } from 'typebox'
import { LogActionBodySchema, LogNavigationBodySchema, OkResponseSchema } from '@portal/shared'
import { actorOf } from '../../plugins/app/auth'
import logsRoutes from './logs.routes'
import type { LogsService } from './logs.service'
import type { ActivityEntry } from './activity.repository'
import { route } from '../../lib/route'

/** An event route: any signed-in user may write one, answered 201. */
const eventRoute = <B extends TSchema>(body: B) =>
  route('activity.write', { tags: ['activity-logs'], body, response: { 201: OkResponseSchema } })

/**
 * UI events only (docs/product-decisions.md D14): the action list is closed by the schema, and the user and IP
 * are stamped here, never taken from the browser.
 */
const activityRoutes: FastifyPluginAsyncTypebox<{ logs: LogsService }> = async (app, { logs }) => {
  /** Records the event with the caller and their IP, then answers 201. */
  async function logged(
    request: FastifyRequest,
    reply: FastifyReply,
    entry: Pick<ActivityEntry, 'action' | 'details'>,
  ) {
    await logs.record({ action: entry.action, actor: actorOf(request), details: entry.details, ipAddress: request.ip })
    return reply.code(201).send({ message: 'Logged' })
  }

  app.post('/action', eventRoute(LogActionBodySchema), async (request, reply) =>
    logged(request, reply, { action: request.body.action, details: request.body.details ?? null }),
  )

  app.post('/navigation', eventRoute(LogNavigationBodySchema), async (request, reply) =>
    logged(request, reply, { action: 'NAVIGATION_LOGGED', details: { pathname: request.body.pathname } }),
  )

  // The log list and its CSV export (GET /api/logs, GET /api/logs/export.csv).
  await app.register(logsRoutes, { logs })
}

export default activityRoutes
