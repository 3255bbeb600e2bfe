import { RefreshCw } from 'lucide-react'
import { useState } from 'react'
import { Button } from './button'

/** docs/product-rules.md §2: "Error:" plus the message, and a Refresh Data button that reads Refreshing... while busy. */
export function ErrorState({
  message,
  onRefresh,
  refreshing,
}: {
  message: string
  onRefresh: () => void
  refreshing: boolean
}) {
  return (
    <div className="rounded-md border border-red-300 bg-red-50 p-4 text-sm text-red-800">
      <p role="alert">
        <span className="font-semibold">Error: </span>
        {message}
      </p>
      <Button variant="secondary" size="sm" className="mt-3" onClick={onRefresh} disabled={refreshing}>
        <RefreshCw aria-hidden="true" className={refreshing ? 'size-4 animate-spin' : 'size-4'} />
        {refreshing ? 'Refreshing...' : 'Refresh Data'}
      </Button>
    </div>
  )
}

/**
 * The last error of a query until data arrives. TanStack Query clears `error` when a query
 * without data fetches again, so the error (and its Refresh Data button) would vanish while
 * the retry runs; this keeps it on screen so the button can read Refreshing....
 */
export function useStickyError(error: unknown, hasData: boolean): unknown {
  const [kept, setKept] = useState<unknown>(null)
  if (error && error !== kept) setKept(error)
  if (hasData && kept) setKept(null)
  return error ?? (hasData ? null : kept)
}
