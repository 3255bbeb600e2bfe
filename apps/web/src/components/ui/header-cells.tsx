import type { ReactNode } from 'react'
import { cn } from './cn'

/** Column headers of a table's header row, in order, each with the same class. */
export function HeaderCells({ labels, className }: { labels: readonly ReactNode[]; className: string }) {
  return labels.map((label, i) => (
    <th key={i} scope="col" className={className}>
      {label}
    </th>
  ))
}

/** A table that scrolls sideways when it is wider than the screen, named by its caption (for screen readers). */
export function ScrollTable({
  caption,
  className,
  frameClassName,
  children,
}: {
  caption: string
  className: string
  frameClassName?: string
  children: ReactNode
}) {
  return (
    <div className={cn('overflow-x-auto', frameClassName)}>
      <table className={className}>
        <caption className="sr-only">{caption}</caption>
        {children}
      </table>
    </div>
  )
}
