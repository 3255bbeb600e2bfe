import { useMemo } from 'react'
import { errorMessage } from '@/lib/api-error'
import { useCompanyOptions } from '@/lib/company-options'
import { SearchablePicker } from './searchable-picker'

/**
 * A staff member's choice of company (the new dispatch form, the learners filter) among the
 * mirror's companies. `error` is the form's own message; without one, a failed load says
 * `loadFailed` (with the server's reason).
 */
export function CompanyPicker({
  value,
  onChange,
  required = false,
  error = null,
  loadFailed,
}: {
  value: string
  onChange: (companyId: string) => void
  required?: boolean
  error?: string | null | undefined
  loadFailed: string
}) {
  const { data, isPending, error: loadError } = useCompanyOptions()
  const options = useMemo(() => (data ?? []).map((c) => ({ value: c.id, label: c.name || c.id })), [data])
  return (
    <SearchablePicker
      label="Company"
      searchLabel="Search companies"
      options={options}
      value={value}
      onChange={onChange}
      required={required}
      loading={isPending}
      error={error ?? (loadError ? errorMessage(loadError, loadFailed) : null)}
    />
  )
}
