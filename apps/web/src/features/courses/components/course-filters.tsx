import { DebouncedSearchInput } from '@/components/ui/search-input'
import { labelOptions, numberOptions, Select } from '@/components/ui/select'
import {
  COURSE_PAGE_SIZES,
  type CatalogueQuery,
  type CoursePageSize,
  type CourseSort,
  type SortOrder,
  type VisibilityFilter,
} from '../utils/catalogue'

const SORT_OPTIONS = labelOptions({ title: 'Title', registrations: 'Registrations', updated: 'Last Updated' })
const ORDER_OPTIONS = labelOptions({ asc: 'Ascending', desc: 'Descending' })
const VISIBILITY_OPTIONS = labelOptions({ all: 'All Courses', visible: 'Visible Only', hidden: 'Hidden Only' })
const PAGE_SIZE_OPTIONS = numberOptions(COURSE_PAGE_SIZES)

type Props = {
  query: CatalogueQuery
  showVisibility: boolean
  onChange: (changes: Partial<CatalogueQuery>) => void
  onSearch: (search: string) => void
}

/** docs/product-rules.md §2 Courses filters: search (debounced), Sort By, Order, Items per page, admin Visibility. */
export function CourseFilters({ query, showVisibility, onChange, onSearch }: Props) {
  return (
    <div className="grid gap-4 rounded-lg border border-slate-200 bg-white p-4 shadow-xs md:grid-cols-2 lg:grid-cols-[2fr_repeat(4,minmax(0,1fr))]">
      <DebouncedSearchInput
        label="Search"
        value={query.search}
        onSearch={onSearch}
        placeholder="Search by title or tag..."
      />
      <Select
        label="Sort By"
        value={query.sort}
        options={SORT_OPTIONS}
        onChange={(event) => onChange({ sort: event.target.value as CourseSort })}
      />
      <Select
        label="Order"
        value={query.order}
        options={ORDER_OPTIONS}
        onChange={(event) => onChange({ order: event.target.value as SortOrder })}
      />
      <Select
        label="Items per page"
        value={String(query.pageSize)}
        options={PAGE_SIZE_OPTIONS}
        onChange={(event) => onChange({ pageSize: Number(event.target.value) as CoursePageSize })}
      />
      {showVisibility && (
        <Select
          label="Visibility"
          value={query.visibility}
          options={VISIBILITY_OPTIONS}
          onChange={(event) => onChange({ visibility: event.target.value as VisibilityFilter })}
        />
      )}
    </div>
  )
}
