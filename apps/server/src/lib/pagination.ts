import type { Pagination } from '@portal/shared'

/** A list answer's pagination; totalPages is 0 for an empty set: there is no page to show. */
export function toPagination(totalItems: number, page: number, pageSize: number): Pagination {
  return { totalItems, page, pageSize, totalPages: Math.ceil(totalItems / pageSize) }
}
