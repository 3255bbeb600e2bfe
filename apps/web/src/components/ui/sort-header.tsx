import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react'

export type SortProps<S extends string> = { sort: S; order: 'asc' | 'desc'; onSort: (sort: S) => void }

/** A sortable column header: a button, aria-sort on the cell, an arrow for the direction. */
export function SortHeader<S extends string>({
  column,
  label,
  sort,
  order,
  onSort,
  className = 'px-4 py-3 text-left',
}: SortProps<S> & { column: S; label: string; className?: string }) {
  const active = sort === column
  const Arrow = !active ? ArrowUpDown : order === 'asc' ? ArrowUp : ArrowDown
  return (
    <th scope="col" aria-sort={active ? (order === 'asc' ? 'ascending' : 'descending') : 'none'} className={className}>
      <button
        type="button"
        onClick={() => onSort(column)}
        className="inline-flex items-center gap-1 rounded text-xs font-semibold tracking-wide text-slate-700 uppercase hover:text-slate-900"
      >
        {label}
        <Arrow aria-hidden="true" className={active ? 'size-4 text-blue-700' : 'size-4 text-slate-400'} />
      </button>
    </th>
  )
}
