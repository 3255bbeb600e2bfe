import { ACTIVITY_ACTIONS } from '@portal/shared'
import { Download, RotateCcw } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { DateRangeFields } from '@/components/ui/date-field'
import { Field, SelectOptions, controlClass } from '@/components/ui/field'
import type { SelectOption } from '@/components/ui/select'
import { SearchInput } from '@/components/ui/search-input'
import type { LogUserOption } from '../api/get-log-users'

export type LogFilterValues = { startDate: string; endDate: string; userId: string; action: string; search: string }
export const EMPTY_FILTERS: LogFilterValues = { startDate: '', endDate: '', userId: '', action: '', search: '' }

type Props = {
  values: LogFilterValues
  users: readonly LogUserOption[]
  dateError: string | null
  busy: boolean
  onChange: (changes: Partial<LogFilterValues>) => void
  onReset: () => void
  onDownload: () => void
}

const userLabel = (user: LogUserOption) => (user.name ? `${user.name} (${user.email})` : user.email)

/** A filter's select; its first option, the empty value, is no filter. */
function FilterSelect({
  label,
  value,
  options,
  onChange,
}: {
  label: string
  value: string
  options: SelectOption[]
  onChange: (value: string) => void
}) {
  return (
    <Field label={label}>
      {(control) => (
        <select {...control} value={value} onChange={(e) => onChange(e.target.value)} className={controlClass}>
          <SelectOptions options={options} />
        </select>
      )}
    </Field>
  )
}

/** docs/product-rules.md §2 Activity Logs filters, reset and CSV download. */
export function LogFilters({ values, users, dateError, busy, onChange, onReset, onDownload }: Props) {
  return (
    <div className="space-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-xs">
      <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-4">
        <DateRangeFields
          labels={['Start Date', 'End Date']}
          start={values.startDate}
          end={values.endDate}
          endError={dateError}
          onChange={onChange}
        />
        <FilterSelect
          label="User"
          value={values.userId}
          options={[{ value: '', label: 'All Users' }, ...users.map((u) => ({ value: u.id, label: userLabel(u) }))]}
          onChange={(userId) => onChange({ userId })}
        />
        <FilterSelect
          label="Action"
          value={values.action}
          options={[{ value: '', label: 'All Actions' }, ...ACTIVITY_ACTIONS.map((a) => ({ value: a, label: a }))]}
          onChange={(action) => onChange({ action })}
        />
      </div>
      <div className="flex flex-col gap-3 md:flex-row md:items-end">
        <div className="flex-1">
          <SearchInput
            label="Search"
            value={values.search}
            onChange={(search) => onChange({ search })}
            placeholder="Search details, IP, user..."
          />
        </div>
        <Button variant="secondary" onClick={onReset} disabled={busy}>
          <RotateCcw aria-hidden="true" className="size-4" />
          Reset Filters
        </Button>
        <Button onClick={onDownload} disabled={busy || Boolean(dateError)}>
          <Download aria-hidden="true" className="size-4" />
          {busy ? 'Downloading...' : 'Download CSV'}
        </Button>
      </div>
    </div>
  )
}
