import { Skeleton } from '@/components/ui/skeleton'

/** Card-shaped placeholders while the catalogue loads. */
export function CourseGridSkeleton({ count = 6 }: { count?: number }) {
  return (
    <div>
      <p role="status" className="sr-only">
        Loading courses...
      </p>
      <div className="grid gap-6 sm:grid-cols-2 xl:grid-cols-3">
        {Array.from({ length: count }, (_, i) => (
          <div key={i} className="overflow-hidden rounded-lg border border-slate-200 bg-white">
            <Skeleton className="h-40 w-full rounded-none" />
            <div className="space-y-3 p-4">
              <Skeleton className="h-5 w-3/4" />
              <Skeleton className="h-4 w-full" />
              <Skeleton className="h-4 w-5/6" />
              <Skeleton className="h-8 w-1/3" />
            </div>
          </div>
        ))}
      </div>
    </div>
  )
}
