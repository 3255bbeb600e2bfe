import { Skeleton } from '@/components/ui/skeleton'
import { DispatchSummarySkeleton } from './dispatch-summary-cards'

/** docs/product-rules.md §2: a loading skeleton shows first. */
export function DispatchListSkeleton() {
  return (
    <div role="status" className="space-y-6">
      <span className="sr-only">Loading dispatches...</span>
      <DispatchSummarySkeleton />
      <div className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
        {[0, 1, 2, 3, 4].map((i) => (
          <Skeleton key={i} className="h-8 w-full" />
        ))}
      </div>
    </div>
  )
}
