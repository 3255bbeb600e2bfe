/**
 * Shared list handler for the in-memory collections (courses, destinations, dispatches):
 * since/until on `datetimeFilter`, tags (any), filter/filterBy (case-insensitive contains),
 * orderBy, cursor paging and X-Total-Count on the first request.
 */
import { HttpError, ok, type Reply } from './http-util'
import {
  encodeCursor,
  listQuery,
  pageSorted,
  parseBool,
  parseDate,
  parseDatetimeFilter,
  parseOrderBy,
  sortByKey,
  type SortKey,
} from './paging'
import type { RequestContext } from './router'

/** What every listed record has: an id, its created and updated times, and tags. */
export interface DatedRecord {
  id: string
  createdMs: number
  updatedMs: number
  tags: readonly string[]
}

/** The parameters every list takes: the time window on `datetimeFilter`, tags, filter and order. */
export const DATED_LIST_PARAMS = ['since', 'until', 'datetimeFilter', 'tags', 'filter', 'filterBy', 'orderBy'] as const

export interface MemoryListSpec<T extends DatedRecord> {
  /** Token kind; include scope (e.g. the destination id) so tokens cannot cross lists. */
  kind: string
  /** Response property holding the items. */
  listKey: string
  /** Query parameters this list understands (besides `more`). */
  params: readonly string[]
  defaultOrderBy: string
  /** orderBy fields besides `created` and `updated` -> sort value. */
  orderFields?: Record<string, (item: T) => SortKey>
  /** filterBy values -> searched text; the first is the default. */
  filterFields: Record<string, (item: T) => string>
  items: () => T[]
  /** Further list-specific filters from the effective query. */
  where?: (query: Record<string, string>) => (item: T) => boolean
  toJson: (item: T, query: Record<string, string>) => unknown
  version: () => number
}

export function memoryList<T extends DatedRecord>(rc: RequestContext, spec: MemoryListSpec<T>): Reply {
  const { query, after, offset, first } = listQuery(rc.search, spec.kind, [...spec.params, 'includeTotalCount'])
  const orderFields: Record<string, (item: T) => SortKey> = {
    created: (item) => item.createdMs,
    updated: (item) => item.updatedMs,
    ...spec.orderFields,
  }
  const order = parseOrderBy(query.orderBy, spec.defaultOrderBy, Object.keys(orderFields))
  const sortValue = orderFields[order.field] as (item: T) => SortKey
  const key = (item: T): [SortKey, SortKey] => [sortValue(item), item.id]
  const dt = parseDatetimeFilter(query.datetimeFilter, 'updated')
  const since = parseDate(query.since, 'since')
  const until = parseDate(query.until, 'until')
  const tags = query.tags
    ? query.tags
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean)
    : []
  const filterNames = Object.keys(spec.filterFields)
  const filterBy = (query.filterBy ?? filterNames[0] ?? '').toLowerCase()
  const filterField = spec.filterFields[filterBy]
  if (query.filter !== undefined && !filterField) {
    throw new HttpError(
      400,
      `Invalid value for parameter filterBy: ${query.filterBy}. Supported: ${filterNames.join(', ')}`,
    )
  }
  const needle = query.filter?.toLowerCase()
  const extra = spec.where?.(query)

  // Filtering and sorting depend only on the query and the data version: cache them so a
  // paging pass over 50,000 dispatches sorts once, not once per page.
  const { includeTotalCount: _ignored, ...shape } = query
  const cacheKey = `${spec.kind}|${spec.version()}|${JSON.stringify(shape)}`
  const sorted = rc.sim.lists.get(cacheKey, () => {
    const matches = spec.items().filter((item) => {
      const t = dt === 'created' ? item.createdMs : item.updatedMs
      if (since !== undefined && t < since) return false
      if (until !== undefined && t > until) return false
      if (tags.length > 0 && !item.tags.some((tag) => tags.includes(tag))) return false
      if (needle !== undefined && filterField && !filterField(item).toLowerCase().includes(needle)) return false
      return extra ? extra(item) : true
    })
    return sortByKey(matches, key, order.desc)
  })

  const { pageSize, paging } = rc.sim.options
  // Offset mode: the token is a position in the list as sorted now (see SimulatorOptions.paging).
  const start = paging === 'offset' ? (offset ?? 0) : null
  const { page, hasMore } =
    start === null
      ? pageSorted(sorted, key, order.desc, after, pageSize)
      : { page: sorted.slice(start, start + pageSize), hasMore: sorted.length > start + pageSize }
  const body: Record<string, unknown> = { [spec.listKey]: page.map((item) => spec.toJson(item, query)) }
  const last = page[page.length - 1]
  if (hasMore && last !== undefined) {
    body.more = encodeCursor({
      kind: spec.kind,
      query,
      after: key(last),
      ...(start === null ? {} : { offset: start + page.length }),
    })
  }
  return ok(body, first && parseBool(query.includeTotalCount) ? { 'X-Total-Count': String(sorted.length) } : undefined)
}
