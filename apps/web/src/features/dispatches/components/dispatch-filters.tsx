import { DISPATCH_PAGE_SIZES, type DispatchListQuery } from '@portal/shared'
import { Search } from 'lucide-react'
import { useEffect, useId, useState } from 'react'
import { Select } from '@/components/ui/select'

export const SEARCH_DEBOUNCE_MS = 300

const STATUS_OPTIONS = [
  { value: 'all', label: 'All' },
  { value: 'enabled', label: 'Enabled' },
  { value: 'disabled', label: 'Disabled' },
] as const

const PAGE_SIZE_OPTIONS = DISPATCH_PAGE_SIZES.map((size) => ({ value: String(size), label: String(size) }))

type Props = {
  search: string
  status: DispatchListQuery['status']
  pageSize: DispatchListQuery['pageSize']
  onSearch: (search: string) => void
  onStatusChange: (status: DispatchListQuery['status']) => void
  onPageSizeChange: (pageSize: DispatchListQuery['pageSize']) => void
}

/** SPEC §2 filters: Search (debounced), Status, Items per page. */
export function DispatchFilters({ search, status, pageSize, onSearch, onStatusChange, onPageSizeChange }: Props) {
  const searchId = useId()
  const [draft, setDraft] = useState(search)
  const [shown, setShown] = useState(search)

  // Back/forward changes the URL's search: show it in the box (our own debounced update
  // already matches what is typed, trailing space included, so it is left alone).
  if (search !== shown) {
    setShown(search)
    if (draft.trim() !== search) setDraft(search)
  }

  useEffect(() => {
    const value = draft.trim()
    if (value === search) return
    const timer = setTimeout(() => onSearch(value), SEARCH_DEBOUNCE_MS)
    return () => clearTimeout(timer)
  }, [draft, search, onSearch])

  return (
    <div className="grid gap-4 rounded-lg border border-slate-200 bg-white p-4 shadow-xs md:grid-cols-[1fr_auto_auto]">
      <div className="flex flex-col gap-1.5">
        <label htmlFor={searchId} className="sr-only">
          Search dispatches
        </label>
        <span aria-hidden="true" className="hidden text-sm font-medium text-slate-800 md:block">
          &nbsp;
        </span>
        <div className="relative">
          <Search aria-hidden="true" className="pointer-events-none absolute top-2.5 left-3 size-5 text-slate-400" />
          <input
            id={searchId}
            type="search"
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            placeholder="Search dispatches..."
            maxLength={200}
            className="h-10 w-full rounded-md border border-slate-300 bg-white pr-3 pl-10 text-sm text-slate-900 shadow-xs placeholder:text-slate-500 focus:border-blue-600"
          />
        </div>
      </div>
      <Select
        label="Status"
        value={status}
        options={STATUS_OPTIONS}
        onChange={(event) => onStatusChange(event.target.value as DispatchListQuery['status'])}
      />
      <Select
        label="Items per page"
        value={String(pageSize)}
        options={PAGE_SIZE_OPTIONS}
        onChange={(event) => onPageSizeChange(Number(event.target.value) as DispatchListQuery['pageSize'])}
      />
    </div>
  )
}
