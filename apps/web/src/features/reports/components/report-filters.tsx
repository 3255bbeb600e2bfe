import type { FormEvent } from 'react'
import { Button } from '@/components/ui/button'
import { DateRangeFields } from '@/components/ui/date-field'
import { SearchInput } from '@/components/ui/search-input'
import { labelOptions, Select } from '@/components/ui/select'
import { COMPLETION_LABELS } from '@/components/ui/status-badges'

export type ReportFilterValues = {
  search: string
  status: '' | 'completed' | 'incomplete' | 'not attempted'
  startDate: string
  endDate: string
}

export const NO_FILTERS: ReportFilterValues = { search: '', status: '', startDate: '', endDate: '' }

export const hasFilters = (f: ReportFilterValues) => Boolean(f.search.trim() || f.status || f.startDate || f.endDate)

/** docs/product-rules.md §4: the value 'not attempted' is labelled Not Started. */
const STATUS_OPTIONS = labelOptions(COMPLETION_LABELS, { value: '', label: 'All Statuses' })

/** docs/product-rules.md §2 report filters: they apply on Apply Filters, or on Enter in any field. */
export function ReportFilters({
  draft,
  showClear,
  invalid,
  repeatLearners,
  onChange,
  onApply,
  onClear,
  onRepeatLearnersChange,
}: {
  draft: ReportFilterValues
  showClear: boolean
  invalid: string | null
  /** Only the registrations of learners with more than one on the dispatch (applies at once). */
  repeatLearners: boolean
  onChange: (draft: ReportFilterValues) => void
  onApply: () => void
  onClear: () => void
  onRepeatLearnersChange: (on: boolean) => void
}) {
  const set = <K extends keyof ReportFilterValues>(key: K, value: ReportFilterValues[K]) =>
    onChange({ ...draft, [key]: value })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    onApply()
  }

  return (
    // Each field keeps the width its content needs (a date box shows all of YYYY-MM-DD) and the
    // row wraps when they do not fit, rather than squeezing them.
    <form
      role="search"
      aria-label="Completion report filters"
      onSubmit={submit}
      noValidate
      className="flex flex-wrap items-end gap-4"
    >
      <div className="min-w-0 flex-[2_1_12rem]">
        <SearchInput
          label="Search learners"
          placeholder="Search learners..."
          value={draft.search}
          onChange={(search) => set('search', search)}
        />
      </div>
      <div className="min-w-[9rem] flex-[1_1_9rem]">
        <Select
          label="Status"
          value={draft.status}
          options={STATUS_OPTIONS}
          className="w-full"
          onChange={(e) => set('status', e.target.value as ReportFilterValues['status'])}
        />
      </div>
      <DateRangeFields
        labels={['Last Access From', 'Last Access To']}
        start={draft.startDate}
        end={draft.endDate}
        cellClassName="min-w-[12rem] flex-[1_1_12rem]"
        onChange={(change) => onChange({ ...draft, ...change })}
      />
      <label className="flex shrink-0 items-center gap-2 self-center text-sm font-medium text-slate-800">
        <input
          type="checkbox"
          checked={repeatLearners}
          onChange={(e) => onRepeatLearnersChange(e.target.checked)}
          className="size-4 rounded border-slate-300"
        />
        Only learners with more than one registration
      </label>
      <div className="flex shrink-0 items-end gap-2">
        <Button type="submit">Apply Filters</Button>
        {showClear && (
          <Button variant="secondary" onClick={onClear}>
            Clear Filters
          </Button>
        )}
      </div>
      {invalid && (
        <p role="alert" className="w-full text-sm text-red-700">
          {invalid}
        </p>
      )}
    </form>
  )
}
