import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorResponseSchema, OutboxPageSchema, OutboxQuerySchema } from '@portal/shared'
import type { OutboxService } from './outbox.service'

const errors = { 400: ErrorResponseSchema, 401: ErrorResponseSchema, 403: ErrorResponseSchema }

/** Issue #17: GET /api/admin/outbox, newest first, paged (admin). Without SMTP_URL mails stay here. */
const outboxRoutes: FastifyPluginAsyncTypebox<{ outbox: OutboxService }> = async (app, { outbox }) => {
  app.get(
    '/outbox',
    {
      config: { permission: 'outbox.read' },
      schema: { tags: ['mail'], querystring: OutboxQuerySchema, response: { 200: OutboxPageSchema, ...errors } },
    },
    async (request) => outbox.page(request.query),
  )
}

export default outboxRoutes
