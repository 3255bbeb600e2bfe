import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { JobActionResultSchema, JobParamsSchema, JobsOverviewSchema } from '@portal/shared'
import { errorResponses } from '../../lib/error-responses'
import type { JobsService } from './jobs.service'
import { route } from '../../lib/route'

/**
 * The admin Jobs screen (admin only): GET the queues, their counts by state and the last
 * failures; POST a retry of a failed job or a cancel of a waiting one.
 */
const jobsRoutes: FastifyPluginAsyncTypebox<{ jobs: JobsService }> = async (app, { jobs }) => {
  app.get(
    '/',
    route('jobs.manage', {
      tags: ['operations'],
      response: { 200: JobsOverviewSchema, ...errorResponses(401, 403, 503) },
    }),
    async () => jobs.overview(),
  )
  const action = route('jobs.manage', {
    tags: ['operations'],
    params: JobParamsSchema,
    response: { 200: JobActionResultSchema, ...errorResponses(400, 401, 403, 404, 409) },
  })
  app.post('/:id/retry', action, async (request) => jobs.retry(request.params.id))
  app.post('/:id/cancel', action, async (request) => jobs.cancel(request.params.id))
}

export default jobsRoutes
