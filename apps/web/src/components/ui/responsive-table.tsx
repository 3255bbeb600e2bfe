import type { ReactNode } from 'react'
import { cn } from './cn'
import { useIsWideScreen } from './use-is-wide-screen'

export type Column<T> = {
  header: string
  /** The cell's content; `layout` tells a cell whether it sits in the table or a card. */
  cell: (row: T, layout: 'table' | 'cards') => ReactNode
  /** Classes of the table cell (wide layout). */
  className?: string
  /**
   * The column that names the row: the card's title on phones. One column should set it.
   */
  primary?: boolean
  /** Render the cell as the row's header (`th scope="row"`) in the table. */
  rowHeader?: boolean
  /** Row actions: the last part of a card, without a label. */
  actions?: boolean
}

type Props<T> = {
  /** Names the table (caption) and the phone list (aria-label). */
  caption: string
  columns: readonly Column<T>[]
  rows: readonly T[]
  rowKey: (row: T) => string
  /** Forces a layout (tests, or screens that always want one). */
  layout?: 'table' | 'cards'
}

/** A column header cell's classes; `nowrap` keeps a title on one line. */
export const headerCellClass = (nowrap = false) =>
  cn('px-4 py-3 text-left text-xs font-semibold tracking-wide text-slate-700 uppercase', nowrap && 'whitespace-nowrap')
const td = 'px-4 py-3 align-top'

/**
 * docs/product-rules.md §9: a table from 1024 px up, cards (a stacked row per item, labelled values) below. The
 * table sits in a named, focusable scroll box, so a keyboard reaches columns that do not fit.
 */
export function ResponsiveTable<T>({ caption, columns, rows, rowKey, layout }: Props<T>) {
  const wide = useIsWideScreen()
  const asTable = layout ? layout === 'table' : wide
  return asTable ? (
    <TableLayout caption={caption} columns={columns} rows={rows} rowKey={rowKey} />
  ) : (
    <CardLayout caption={caption} columns={columns} rows={rows} rowKey={rowKey} />
  )
}

/** The scroll box every wide table sits in: named and focusable (axe scrollable-region-focusable). */
export function TableScrollBox({
  label,
  className,
  children,
}: {
  label: string
  className?: string
  children: ReactNode
}) {
  return (
    <div
      role="region"
      aria-label={label}
      // A scrollable region must be reachable by keyboard (axe scrollable-region-focusable).
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
      tabIndex={0}
      className={cn(
        'relative overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-xs',
        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600',
        className,
      )}
    >
      {children}
    </div>
  )
}

/**
 * A wide table in its scroll box: the caption (for screen readers, and the box's name), the
 * column titles, and the rows the caller writes. `head` replaces the titles with header cells of
 * the caller's own (sorting buttons).
 */
export function DataTable({
  caption,
  headers = [],
  head,
  nowrapHeaders = false,
  children,
}: {
  caption: string
  headers?: readonly string[]
  head?: ReactNode
  nowrapHeaders?: boolean
  children: ReactNode
}) {
  return (
    <TableScrollBox label={caption}>
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50">
          <tr>
            {head ??
              headers.map((header) => (
                <th key={header} scope="col" className={headerCellClass(nowrapHeaders)}>
                  {header}
                </th>
              ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">{children}</tbody>
      </table>
    </TableScrollBox>
  )
}

function TableLayout<T>({ caption, columns, rows, rowKey }: Omit<Props<T>, 'layout'>) {
  return (
    <DataTable caption={caption} headers={columns.map((column) => column.header)} nowrapHeaders>
      {rows.map((row) => (
        <tr key={rowKey(row)} className="hover:bg-slate-50">
          {columns.map((column) =>
            column.rowHeader ? (
              <th key={column.header} scope="row" className={cn(td, 'text-left font-normal', column.className)}>
                {column.cell(row, 'table')}
              </th>
            ) : (
              <td key={column.header} className={cn(td, column.className)}>
                {column.cell(row, 'table')}
              </td>
            ),
          )}
        </tr>
      ))}
    </DataTable>
  )
}

function CardLayout<T>({ caption, columns, rows, rowKey }: Omit<Props<T>, 'layout'>) {
  const primary = columns.find((column) => column.primary)
  const fields = columns.filter((column) => !column.primary && !column.actions)
  const actions = columns.find((column) => column.actions)
  return (
    <ul aria-label={caption} className="space-y-3">
      {rows.map((row) => (
        <li key={rowKey(row)} className="min-w-0 rounded-lg border border-slate-200 bg-white p-4 text-sm shadow-xs">
          {primary && <div className="min-w-0 break-words">{primary.cell(row, 'cards')}</div>}
          <dl className={cn('grid grid-cols-[minmax(0,7rem)_minmax(0,1fr)] gap-x-3 gap-y-2', primary && 'mt-3')}>
            {fields.map((column) => (
              <div key={column.header} className="contents">
                <dt className="text-slate-600">{column.header}</dt>
                <dd className="min-w-0 break-words text-slate-900">{column.cell(row, 'cards')}</dd>
              </div>
            ))}
          </dl>
          {actions && <div className="mt-3 border-t border-slate-100 pt-3">{actions.cell(row, 'cards')}</div>}
        </li>
      ))}
    </ul>
  )
}
