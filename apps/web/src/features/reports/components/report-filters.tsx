import type { FormEvent } from 'react'
import { Button } from '@/components/ui/button'
import { DateField } from '@/components/ui/date-field'
import { SearchInput } from '@/components/ui/search-input'
import { Select } from '@/components/ui/select'

export type ReportFilterValues = {
  search: string
  status: '' | 'completed' | 'incomplete' | 'not attempted'
  startDate: string
  endDate: string
}

export const NO_FILTERS: ReportFilterValues = { search: '', status: '', startDate: '', endDate: '' }

export const hasFilters = (f: ReportFilterValues) => Boolean(f.search.trim() || f.status || f.startDate || f.endDate)

/** SPEC §4: the value 'not attempted' is labelled Not Started. */
const STATUS_OPTIONS = [
  { value: '', label: 'All Statuses' },
  { value: 'completed', label: 'Completed' },
  { value: 'incomplete', label: 'Incomplete' },
  { value: 'not attempted', label: 'Not Started' },
] as const

/** SPEC §2 report filters: they apply on Apply Filters, or on Enter in any field. */
export function ReportFilters({
  draft,
  showClear,
  invalid,
  onChange,
  onApply,
  onClear,
}: {
  draft: ReportFilterValues
  showClear: boolean
  invalid: string | null
  onChange: (draft: ReportFilterValues) => void
  onApply: () => void
  onClear: () => void
}) {
  const set = <K extends keyof ReportFilterValues>(key: K, value: ReportFilterValues[K]) =>
    onChange({ ...draft, [key]: value })
  const range = { start: draft.startDate, end: draft.endDate }
  const submit = (event: FormEvent) => {
    event.preventDefault()
    onApply()
  }

  return (
    <form
      role="search"
      aria-label="Completion report filters"
      onSubmit={submit}
      noValidate
      className="grid gap-4 md:grid-cols-2 xl:grid-cols-[2fr_1fr_1fr_1fr_auto]"
    >
      <SearchInput
        label="Search learners"
        placeholder="Search learners..."
        value={draft.search}
        onChange={(search) => set('search', search)}
      />
      <Select
        label="Status"
        value={draft.status}
        options={STATUS_OPTIONS}
        onChange={(e) => set('status', e.target.value as ReportFilterValues['status'])}
      />
      <DateField
        label="Last Access From"
        side="start"
        value={draft.startDate}
        range={range}
        onChange={(startDate) => set('startDate', startDate)}
      />
      <DateField
        label="Last Access To"
        side="end"
        value={draft.endDate}
        range={range}
        onChange={(endDate) => set('endDate', endDate)}
      />
      <div className="flex items-end gap-2">
        <Button type="submit">Apply Filters</Button>
        {showClear && (
          <Button variant="secondary" onClick={onClear}>
            Clear Filters
          </Button>
        )}
      </div>
      {invalid && (
        <p role="alert" className="text-sm text-red-700 md:col-span-2 xl:col-span-5">
          {invalid}
        </p>
      )}
    </form>
  )
}
