import {
  DISPATCH_LIST_DEFAULTS,
  DISPATCH_PAGE_SIZES,
  DISPATCH_SORTS,
  DISPATCH_STATUS_FILTERS,
  SORT_ORDERS,
  type DispatchListQuery,
} from '@portal/shared'
import { oneOf, pageParam, useListUrlState } from '@/lib/url-state'

/** docs/product-rules.md §9 defaults: client ascending, 50 per page. Defaults stay out of the URL. */
export const DEFAULT_LIST_QUERY: DispatchListQuery = DISPATCH_LIST_DEFAULTS

/** Reads the list state from the URL; anything unknown falls back to the default. */
export function parseListQuery(params: URLSearchParams): DispatchListQuery {
  const d = DEFAULT_LIST_QUERY
  return {
    page: pageParam(params, d.page),
    pageSize: oneOf(DISPATCH_PAGE_SIZES, Number(params.get('pageSize')), d.pageSize),
    search: (params.get('search') ?? '').trim(),
    status: oneOf(DISPATCH_STATUS_FILTERS, params.get('status'), d.status),
    sort: oneOf(DISPATCH_SORTS, params.get('sort'), d.sort),
    order: oneOf(SORT_ORDERS, params.get('order'), d.order),
  }
}

/**
 * Page, filters and sort live in the URL, so back/forward and reload keep them. Any change
 * other than the page itself starts again at page 1 (docs/product-rules.md §2).
 */
export function useDispatchListParams() {
  const { state: query, update } = useListUrlState(parseListQuery, DEFAULT_LIST_QUERY)
  return { query, update }
}
