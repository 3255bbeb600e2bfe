import { useCallback, useMemo } from 'react'
import { useSearchParams } from 'react-router'

/**
 * A screen's state kept in the URL's query (lists: page, filters, sort): read back with a
 * fallback for anything unknown, written with the defaults left out.
 */

/** `value` when it is one of `values`, else `fallback`. */
export const oneOf = <T extends string | number>(values: readonly T[], value: unknown, fallback: T): T =>
  values.includes(value as T) ? (value as T) : fallback

/** The `page` parameter: a whole number from 1, else `fallback`. */
export function pageParam(params: URLSearchParams, fallback: number): number {
  const page = Number(params.get('page'))
  return Number.isInteger(page) && page >= 1 ? page : fallback
}

/** The state's values that differ from the defaults, as the URL's query. */
export function changedParams<S extends object>(state: S, defaults: S): URLSearchParams {
  const params = new URLSearchParams()
  for (const key of Object.keys(defaults) as Array<keyof S>) {
    const value = state[key]
    if (value !== undefined && value !== defaults[key]) params.set(String(key), String(value))
  }
  return params
}

/**
 * A list screen's state kept in the URL, so back/forward and reload keep it: `parse` reads it
 * (with its fallbacks), and an update writes the values that differ from `defaults`. A change
 * starts again at page 1 unless it only touches `pageKeepers` (the page itself, by default).
 */
export function useListUrlState<S extends { page: number }>(
  parse: (params: URLSearchParams) => S,
  defaults: S,
  pageKeepers: readonly (keyof S)[] = ['page'],
) {
  const [searchParams, setSearchParams] = useSearchParams()
  const state = useMemo(() => parse(searchParams), [parse, searchParams])
  const update = useCallback(
    (changes: Partial<S>, options?: { replace?: boolean }) => {
      const keepsPage = Object.keys(changes).every((key) => pageKeepers.includes(key as keyof S))
      setSearchParams(
        (current) => changedParams({ ...parse(current), ...(keepsPage ? {} : { page: 1 }), ...changes }, defaults),
        { replace: options?.replace ?? false },
      )
    },
    [parse, defaults, pageKeepers, setSearchParams],
  )
  return { state, update }
}
