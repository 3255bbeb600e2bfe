import type { OutboxQuery } from '@portal/shared'
import type { Db } from '../../db/client'
import { toPagination } from '../../lib/pagination'
import { outboxRepository } from './outbox.repository'

/** The admin's view of the outbox, newest first, paged. */
export function createOutboxService(db: Db, options: { smtpConfigured: boolean }) {
  return {
    async page(query: OutboxQuery) {
      const { items, totalItems } = await outboxRepository.page(db, query)
      return { items, ...toPagination(totalItems, query.page, query.limit), smtpConfigured: options.smtpConfigured }
    },
  }
}
export type OutboxService = ReturnType<typeof createOutboxService>
