import { ACTIVITY_ACTIONS } from '@portal/shared'
import { Download, RotateCcw } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { DateRangeFields } from '@/components/ui/date-field'
import { Field, controlClass } from '@/components/ui/field'
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
        <Field label="User">
          {(control) => (
            <select
              {...control}
              value={values.userId}
              onChange={(e) => onChange({ userId: e.target.value })}
              className={controlClass}
            >
              <option value="">All Users</option>
              {users.map((user) => (
                <option key={user.id} value={user.id}>
                  {user.name ? `${user.name} (${user.email})` : user.email}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Action">
          {(control) => (
            <select
              {...control}
              value={values.action}
              onChange={(e) => onChange({ action: e.target.value })}
              className={controlClass}
            >
              <option value="">All Actions</option>
              {ACTIVITY_ACTIONS.map((action) => (
                <option key={action} value={action}>
                  {action}
                </option>
              ))}
            </select>
          )}
        </Field>
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
