import { RefreshCw, Search } from 'lucide-react'
import { useId } from 'react'
import { Button } from '@/components/ui/button'
import { Select } from '@/components/ui/select'
import type { StatusFilter } from '../types'

const STATUS_OPTIONS = [
  { value: 'all', label: 'All Statuses' },
  { value: 'PENDING', label: 'Pending' },
  { value: 'PROCESSED', label: 'Processed' },
  { value: 'COMPLETED', label: 'Completed' },
] as const

/** SPEC §2 request lists: search, status filter and Refresh. */
export function RequestFilters({
  search,
  status,
  placeholder,
  refreshing,
  onSearch,
  onStatus,
  onRefresh,
}: {
  search: string
  status: StatusFilter
  placeholder: string
  refreshing: boolean
  onSearch: (search: string) => void
  onStatus: (status: StatusFilter) => void
  onRefresh: () => void
}) {
  const searchId = useId()
  return (
    <div className="grid items-end gap-4 rounded-lg border border-slate-200 bg-white p-4 shadow-xs md:grid-cols-[1fr_auto_auto]">
      <div className="flex flex-col gap-1.5">
        <label htmlFor={searchId} className="text-sm font-medium text-slate-800">
          Search
        </label>
        <div className="relative">
          <Search aria-hidden="true" className="pointer-events-none absolute top-2.5 left-3 size-5 text-slate-400" />
          <input
            id={searchId}
            type="search"
            value={search}
            onChange={(event) => onSearch(event.target.value)}
            placeholder={placeholder}
            maxLength={200}
            className="h-10 w-full rounded-md border border-slate-300 bg-white pr-3 pl-10 text-sm text-slate-900 shadow-xs placeholder:text-slate-500 focus:border-blue-600"
          />
        </div>
      </div>
      <Select
        label="Status"
        value={status}
        options={STATUS_OPTIONS}
        onChange={(event) => onStatus(event.target.value as StatusFilter)}
      />
      <Button variant="secondary" onClick={onRefresh} disabled={refreshing}>
        <RefreshCw aria-hidden="true" className={refreshing ? 'size-4 animate-spin' : 'size-4'} />
        Refresh
      </Button>
    </div>
  )
}
