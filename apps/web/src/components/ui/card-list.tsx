import type { ReactNode } from 'react'
import { cn } from './cn'

/** A list of cards named by `label` (one `Card` per item), or `empty` when there are no items. */
export function CardList<T>({
  label,
  items,
  empty = null,
  children,
}: {
  label: string
  items: readonly T[]
  empty?: ReactNode
  children: (item: T) => ReactNode
}) {
  if (items.length === 0 && empty !== null) return empty
  return (
    <ul aria-label={label} className="space-y-3">
      {items.map(children)}
    </ul>
  )
}

/** One card of a CardList. */
export function Card({ className, children }: { className?: string; children: ReactNode }) {
  return <li className={cn('rounded-lg border border-slate-200 bg-white p-4 shadow-xs', className)}>{children}</li>
}
