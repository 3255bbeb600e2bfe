import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorResponseSchema, OutboxPageSchema, OutboxQuerySchema } from '@portal/shared'
import { toPagination } from '../dispatches/dispatches.mapper'
import { outboxRepository } from './outbox.repository'

const errors = { 400: ErrorResponseSchema, 401: ErrorResponseSchema, 403: ErrorResponseSchema }

/** Issue #17: GET /api/admin/outbox, newest first, paged (admin). Without SMTP_URL mails stay here. */
const outboxRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/outbox',
    {
      config: { permission: 'outbox.read' },
      schema: { tags: ['mail'], querystring: OutboxQuerySchema, response: { 200: OutboxPageSchema, ...errors } },
    },
    async (request) => {
      const { items, totalItems } = await outboxRepository.page(app.db, request.query)
      return {
        items,
        ...toPagination(totalItems, request.query.page, request.query.limit),
        smtpConfigured: app.config.smtpUrl !== null,
      }
    },
  )
}

export default outboxRoutes
