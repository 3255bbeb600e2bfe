import type { ReactNode } from 'react'

/** Column headers of a table's header row, in order, each with the same class. */
export function HeaderCells({ labels, className }: { labels: readonly ReactNode[]; className: string }) {
  return labels.map((label, i) => (
    <th key={i} scope="col" className={className}>
      {label}
    </th>
  ))
}
