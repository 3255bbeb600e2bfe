import { useCallback } from 'react'
import {
  COURSE_PAGE_SIZES,
  COURSE_SORTS,
  DEFAULT_CATALOGUE_QUERY,
  VISIBILITY_FILTERS,
  type CatalogueQuery,
} from '../utils/catalogue'
import { oneOf, pageParam, useListUrlState } from '@/lib/url-state'

export function parseCatalogueQuery(params: URLSearchParams): CatalogueQuery {
  const d = DEFAULT_CATALOGUE_QUERY
  return {
    search: params.get('search') ?? '',
    sort: oneOf(COURSE_SORTS, params.get('sort'), d.sort),
    order: oneOf(['asc', 'desc'] as const, params.get('order'), d.order),
    pageSize: oneOf(COURSE_PAGE_SIZES, Number(params.get('pageSize')), d.pageSize),
    page: pageParam(params, d.page),
    visibility: oneOf(VISIBILITY_FILTERS, params.get('visibility'), d.visibility),
  }
}

/**
 * The catalogue's search, sort, page size, page and visibility live in the URL, so coming back
 * from a course keeps them. Any change other than the page starts again at page 1; typing a
 * search replaces the history entry.
 */
export function useCatalogueParams() {
  const { state: query, update } = useListUrlState(parseCatalogueQuery, DEFAULT_CATALOGUE_QUERY)
  const updateQuery = useCallback(
    (changes: Partial<CatalogueQuery>) => update(changes, { replace: changes.search !== undefined }),
    [update],
  )
  return { query, update: updateQuery }
}
