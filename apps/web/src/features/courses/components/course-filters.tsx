import { Search } from 'lucide-react'
import { useEffect, useId, useState } from 'react'
import { Select } from '@/components/ui/select'
import {
  COURSE_PAGE_SIZES,
  type CatalogueQuery,
  type CoursePageSize,
  type CourseSort,
  type SortOrder,
  type VisibilityFilter,
} from '../utils/catalogue'

export const COURSE_SEARCH_DEBOUNCE_MS = 300

const SORT_OPTIONS = [
  { value: 'title', label: 'Title' },
  { value: 'registrations', label: 'Registrations' },
  { value: 'updated', label: 'Last Updated' },
] as const
const ORDER_OPTIONS = [
  { value: 'asc', label: 'Ascending' },
  { value: 'desc', label: 'Descending' },
] as const
const VISIBILITY_OPTIONS = [
  { value: 'all', label: 'All Courses' },
  { value: 'visible', label: 'Visible Only' },
  { value: 'hidden', label: 'Hidden Only' },
] as const
const PAGE_SIZE_OPTIONS = COURSE_PAGE_SIZES.map((size) => ({ value: String(size), label: String(size) }))

type Props = {
  query: CatalogueQuery
  showVisibility: boolean
  onChange: (changes: Partial<CatalogueQuery>) => void
  onSearch: (search: string) => void
}

/** SPEC §2 Courses filters: search (debounced), Sort By, Order, Items per page, admin Visibility. */
export function CourseFilters({ query, showVisibility, onChange, onSearch }: Props) {
  const searchId = useId()
  const [draft, setDraft] = useState(query.search)

  useEffect(() => {
    if (draft === query.search) return
    const timer = setTimeout(() => onSearch(draft), COURSE_SEARCH_DEBOUNCE_MS)
    return () => clearTimeout(timer)
  }, [draft, query.search, onSearch])

  return (
    <div className="grid gap-4 rounded-lg border border-slate-200 bg-white p-4 shadow-xs md:grid-cols-2 lg:grid-cols-[2fr_repeat(4,minmax(0,1fr))]">
      <div className="flex flex-col gap-1.5">
        <label htmlFor={searchId} className="text-sm font-medium text-slate-800">
          Search
        </label>
        <div className="relative">
          <Search aria-hidden="true" className="pointer-events-none absolute top-2.5 left-3 size-5 text-slate-400" />
          <input
            id={searchId}
            type="search"
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            placeholder="Search by title or tag..."
            maxLength={200}
            className="h-10 w-full rounded-md border border-slate-300 bg-white pr-3 pl-10 text-sm text-slate-900 shadow-xs placeholder:text-slate-500 focus:border-blue-600"
          />
        </div>
      </div>
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
