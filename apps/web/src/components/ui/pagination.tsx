import { pageWindow, type PageItem } from '@portal/shared'
import { ChevronLeft, ChevronRight } from 'lucide-react'
import type { ComponentProps } from 'react'
import { cn } from './cn'

const pageButton =
  'inline-flex h-9 min-w-9 items-center justify-center gap-1 rounded-md border px-3 text-sm font-medium disabled:cursor-not-allowed disabled:opacity-50'

/**
 * Previous / page numbers / Next. The numbers are a window around the page unless the caller
 * gives others (first and last with "..." for gaps); the current page carries aria-current. A
 * single page needs none: nothing shows unless `alwaysShown`.
 */
export function Pagination({
  page,
  totalPages,
  items = pageWindow(page, totalPages),
  onPageChange,
  label = 'Pagination',
  alwaysShown = false,
}: {
  page: number
  totalPages: number
  items?: readonly PageItem[]
  onPageChange: (page: number) => void
  label?: string
  alwaysShown?: boolean
}) {
  if (totalPages <= 1 && !alwaysShown) return null
  return (
    <nav aria-label={label}>
      <ul className="flex flex-wrap items-center gap-1">
        <li>
          <button
            type="button"
            className={cn(pageButton, 'border-slate-300 bg-white text-slate-700 hover:bg-slate-50')}
            disabled={page <= 1}
            onClick={() => onPageChange(page - 1)}
          >
            <ChevronLeft aria-hidden="true" className="size-4" />
            Previous
          </button>
        </li>
        {items.map((item, index) =>
          item === '...' ? (
            <li key={`gap-${index}`} className="px-2 text-slate-500">
              ...
            </li>
          ) : (
            <li key={item}>
              <button
                type="button"
                aria-label={`Page ${item}`}
                aria-current={item === page ? 'page' : undefined}
                className={cn(
                  pageButton,
                  item === page
                    ? 'border-blue-700 bg-blue-700 text-white'
                    : 'border-slate-300 bg-white text-slate-700 hover:bg-slate-50',
                )}
                onClick={() => item !== page && onPageChange(item)}
              >
                {item}
              </button>
            </li>
          ),
        )}
        <li>
          <button
            type="button"
            className={cn(pageButton, 'border-slate-300 bg-white text-slate-700 hover:bg-slate-50')}
            disabled={page >= totalPages}
            onClick={() => onPageChange(page + 1)}
          >
            Next
            <ChevronRight aria-hidden="true" className="size-4" />
          </button>
        </li>
      </ul>
    </nav>
  )
}

/** Under a list: what it shows ("Showing 1 to 12 of 40 courses", read out as it changes) and its pagination. */
export function PagedFooter({ showing, ...pagination }: { showing: string } & ComponentProps<typeof Pagination>) {
  return (
    <div className="flex flex-col items-center justify-between gap-3 md:flex-row">
      <p className="text-sm text-slate-700" aria-live="polite">
        {showing}
      </p>
      <Pagination {...pagination} />
    </div>
  )
}
