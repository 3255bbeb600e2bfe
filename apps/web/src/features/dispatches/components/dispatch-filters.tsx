import { DISPATCH_PAGE_SIZES, type DispatchListQuery } from '@portal/shared'
import { DebouncedSearchInput } from '@/components/ui/search-input'
import { labelOptions, numberOptions, Select } from '@/components/ui/select'

const STATUS_OPTIONS = labelOptions({ all: 'All', enabled: 'Enabled', disabled: 'Disabled' })

const PAGE_SIZE_OPTIONS = numberOptions(DISPATCH_PAGE_SIZES)

type Props = {
  search: string
  status: DispatchListQuery['status']
  pageSize: DispatchListQuery['pageSize']
  onSearch: (search: string) => void
  onStatusChange: (status: DispatchListQuery['status']) => void
  onPageSizeChange: (pageSize: DispatchListQuery['pageSize']) => void
}

/** docs/product-rules.md §2 filters: Search (debounced), Status, Items per page. */
export function DispatchFilters({ search, status, pageSize, onSearch, onStatusChange, onPageSizeChange }: Props) {
  return (
    <div className="grid gap-4 rounded-lg border border-slate-200 bg-white p-4 shadow-xs md:grid-cols-[1fr_auto_auto]">
      <div className="flex flex-col gap-1.5">
        <span aria-hidden="true" className="hidden text-sm font-medium text-slate-800 md:block">
          &nbsp;
        </span>
        <DebouncedSearchInput
          label="Search dispatches"
          labelHidden
          value={search}
          onSearch={onSearch}
          placeholder="Search dispatches..."
        />
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
