import { RefreshCw } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { SearchInput } from '@/components/ui/search-input'
import { labelOptions, Select } from '@/components/ui/select'
import { STATUS_LABELS, type StatusFilter } from '../types'

const STATUS_OPTIONS = labelOptions(STATUS_LABELS, { value: 'all', label: 'All Statuses' })

/** docs/product-rules.md §2 request lists: search, status filter and Refresh. */
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
  return (
    <div className="grid items-end gap-4 rounded-lg border border-slate-200 bg-white p-4 shadow-xs md:grid-cols-[1fr_auto_auto]">
      <SearchInput label="Search" value={search} onChange={onSearch} placeholder={placeholder} />
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
