/** Page windows and "Showing" ranges of the paginated lists (docs/product-rules.md §2, §9). */

export const ELLIPSIS = '...' as const
export type PageItem = number | typeof ELLIPSIS

/** docs/product-rules.md §9: the dispatch list and the catalogue show a window of at most 5 page numbers. */
export const PAGE_WINDOW_SIZE = 5

/** Up to `size` consecutive page numbers around `current`, shifted to stay within 1..totalPages. */
export function pageWindow(current: number, totalPages: number, size = PAGE_WINDOW_SIZE): number[] {
  if (totalPages < 1) return []
  const count = Math.min(size, totalPages)
  const page = clampPage(current, totalPages)
  const start = Math.min(Math.max(1, page - Math.floor(count / 2)), totalPages - count + 1)
  return Array.from({ length: count }, (_, i) => start + i)
}

/**
 * docs/product-rules.md §2 completion report: the first and last pages and the neighbours of the current
 * page, with "..." for each gap. 10 pages, page 5 → 1 ... 4 5 6 ... 10.
 */
export function pageItemsWithGaps(current: number, totalPages: number): PageItem[] {
  if (totalPages < 1) return []
  const page = clampPage(current, totalPages)
  const shown = new Set([1, totalPages, page - 1, page, page + 1].filter((p) => p >= 1 && p <= totalPages))
  const items: PageItem[] = []
  let previous = 0
  for (const p of [...shown].sort((a, b) => a - b)) {
    if (p - previous > 1) items.push(ELLIPSIS)
    items.push(p)
    previous = p
  }
  return items
}

export function clampPage(page: number, totalPages: number): number {
  if (!Number.isFinite(page) || page < 1) return 1
  return Math.min(Math.floor(page), Math.max(1, totalPages))
}

/** 1-based positions of the first and last item on a page; both 0 when there are none. */
export function showingRange(page: number, pageSize: number, totalItems: number): { from: number; to: number } {
  if (totalItems <= 0 || pageSize <= 0) return { from: 0, to: 0 }
  const from = Math.min((Math.max(1, page) - 1) * pageSize + 1, totalItems)
  return { from, to: Math.min(from + pageSize - 1, totalItems) }
}

/** docs/product-rules.md §2: "Showing X to Y of Z dispatch(es)", with the noun in the singular for one. */
export function showingDispatchesText(page: number, pageSize: number, totalItems: number): string {
  const { from, to } = showingRange(page, pageSize, totalItems)
  return `Showing ${from} to ${to} of ${totalItems} ${totalItems === 1 ? 'dispatch' : 'dispatches'}`
}

/** docs/product-rules.md §2 completion report: "Showing X-Y of N records". */
export function showingRecordsText(page: number, pageSize: number, totalItems: number, capped = false): string {
  const { from, to } = showingRange(page, pageSize, totalItems)
  return `Showing ${from}-${to} of ${totalItems}${capped ? '+' : ''} records`
}
