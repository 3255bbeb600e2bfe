import { cn } from './cn'

/** A grey placeholder block shown while content loads (decorative: announce loading elsewhere). */
export function Skeleton({ className }: { className?: string }) {
  return <div aria-hidden="true" className={cn('animate-pulse rounded-md bg-slate-200', className)} />
}
