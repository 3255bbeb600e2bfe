import type { ReactNode } from 'react'
import { errorMessage } from '@/lib/api-error'
import { ErrorState } from './error-state'
import { Spinner } from './spinner'

/** What these pieces read of a TanStack query. */
export type QueryLike<T> = {
  data: T | undefined
  error: unknown
  isPending: boolean
  isFetching: boolean
  refetch: () => unknown
}

/** The error of a query, whose Refresh Data fetches it again. */
export function QueryErrorState({
  query,
  message,
}: {
  query: Pick<QueryLike<unknown>, 'isFetching' | 'refetch'>
  message: string
}) {
  return <ErrorState message={message} onRefresh={() => void query.refetch()} refreshing={query.isFetching} />
}

/**
 * For a screen that shows nothing until its query has data: the spinner while it loads, then the
 * error (`failed` when the error has no message of its own). Render it while `data` is missing or
 * the query failed.
 */
export function QueryFallback({
  query,
  loading,
  failed,
}: {
  query: Omit<QueryLike<unknown>, 'data'>
  loading: string
  failed: string
}) {
  if (query.isPending) return <Spinner label={loading} />
  return <QueryErrorState query={query} message={errorMessage(query.error, failed)} />
}

/**
 * A card's query: the spinner while it loads, "Error fetching {what}: …" when it failed, else
 * `children` with the data.
 */
export function QueryContent<T>({
  query,
  loading,
  what,
  spinnerClassName = 'py-6',
  children,
}: {
  query: QueryLike<T>
  loading: string
  what: string
  spinnerClassName?: string
  children: (data: T) => ReactNode
}) {
  if (query.isPending) return <Spinner label={loading} className={spinnerClassName} />
  if (query.error || query.data === undefined) {
    return (
      <QueryErrorState
        query={query}
        message={`Error fetching ${what}: ${errorMessage(query.error, String(query.error))}`}
      />
    )
  }
  return children(query.data)
}
