import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { OutboxPageSchema, OutboxQuerySchema } from '@portal/shared'
import { errorResponses } from '../../lib/error-responses'
import type { OutboxService } from './outbox.service'
import { route } from '../../lib/route'

const errors = errorResponses(400, 401, 403)

/** GET /api/admin/outbox, newest first, paged (admin). Without SMTP_URL mails stay here. */
const outboxRoutes: FastifyPluginAsyncTypebox<{ outbox: OutboxService }> = async (app, { outbox }) => {
  app.get(
    '/outbox',
    route('outbox.read', {
      tags: ['mail'],
      querystring: OutboxQuerySchema,
      response: { 200: OutboxPageSchema, ...errors },
    }),
    async (request) => outbox.page(request.query),
  )
}

export default outboxRoutes
