import type { OutboxQuery } from '@portal/shared'
import { toPagination } from '../../lib/pagination'
import type { OutboxRepository } from './outbox.repository'

/** The admin's view of the outbox, newest first, paged. */
export function createOutboxService(outbox: OutboxRepository, options: { smtpConfigured: boolean }) {
  return {
    async page(query: OutboxQuery) {
      const { items, totalItems } = await outbox.page(query)
      return { items, ...toPagination(totalItems, query.page, query.limit), smtpConfigured: options.smtpConfigured }
    },
  }
}
export type OutboxService = ReturnType<typeof createOutboxService>
