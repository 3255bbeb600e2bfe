import { LoaderCircle } from 'lucide-react'
import { cn } from './cn'

/** docs/product-rules.md §2: protected routes show a "Loading..." spinner. The text is visible and announced. */
export function Spinner({ label = 'Loading...', className }: { label?: string; className?: string }) {
  return (
    <div role="status" className={cn('flex items-center gap-2 text-slate-600', className)}>
      <LoaderCircle aria-hidden="true" className="size-5 animate-spin text-blue-700" />
      <span>{label}</span>
    </div>
  )
}

export function PageSpinner() {
  return (
    <div className="flex min-h-[50vh] items-center justify-center">
      <Spinner />
    </div>
  )
}
