import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { LogActionBodySchema, LogNavigationBodySchema, OkResponseSchema } from '@portal/shared'
import { actorOf } from '../../plugins/app/auth'
import logsRoutes from './logs.routes'
import type { LogsService } from './logs.service'
import { route } from '../../lib/route'

/**
 * UI events only (docs/product-decisions.md D14): the action list is closed by the schema, and the user and IP
 * are stamped here, never taken from the browser.
 */
const activityRoutes: FastifyPluginAsyncTypebox<{ logs: LogsService }> = async (app, { logs }) => {
  app.post(
    '/action',
    route('activity.write', {
      tags: ['activity-logs'],
      body: LogActionBodySchema,
      response: { 201: OkResponseSchema },
    }),
    async (request, reply) => {
      await logs.record({
        action: request.body.action,
        actor: actorOf(request),
        details: request.body.details ?? null,
        ipAddress: request.ip,
      })
      return reply.code(201).send({ message: 'Logged' })
    },
  )

  app.post(
    '/navigation',
    route('activity.write', {
      tags: ['activity-logs'],
      body: LogNavigationBodySchema,
      response: { 201: OkResponseSchema },
    }),
    async (request, reply) => {
      await logs.record({
        action: 'NAVIGATION_LOGGED',
        actor: actorOf(request),
        details: { pathname: request.body.pathname },
        ipAddress: request.ip,
      })
      return reply.code(201).send({ message: 'Logged' })
    },
  )

  // The log list and its CSV export (GET /api/logs, GET /api/logs/export.csv).
  await app.register(logsRoutes, { logs })
}

export default activityRoutes
