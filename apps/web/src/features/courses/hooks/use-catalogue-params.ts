import { useCallback, useMemo } from 'react'
import { useSearchParams } from 'react-router'
import {
  COURSE_PAGE_SIZES,
  COURSE_SORTS,
  DEFAULT_CATALOGUE_QUERY,
  VISIBILITY_FILTERS,
  type CatalogueQuery,
} from '../utils/catalogue'
import { changedParams, oneOf, pageParam } from '@/lib/url-state'

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

const toSearchParams = (query: CatalogueQuery) => changedParams(query, DEFAULT_CATALOGUE_QUERY)

/**
 * The catalogue's search, sort, page size, page and visibility live in the URL, so coming back
 * from a course keeps them. Any change other than the page starts again at page 1.
 */
export function useCatalogueParams() {
  const [searchParams, setSearchParams] = useSearchParams()
  const query = useMemo(() => parseCatalogueQuery(searchParams), [searchParams])
  const update = useCallback(
    (changes: Partial<CatalogueQuery>) => {
      setSearchParams((current) => toSearchParams({ ...parseCatalogueQuery(current), page: 1, ...changes }), {
        replace: changes.search !== undefined,
      })
    },
    [setSearchParams],
  )
  return { query, update }
}
