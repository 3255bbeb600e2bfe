import { useCallback, useMemo } from 'react'
import { useSearchParams } from 'react-router'
import { changedParams } from '@/lib/url-state'

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
