import { useId, useMemo, useState } from 'react'
import { controlClass } from './field'
import { cn } from './cn'

export type PickerOption = { value: string; label: string; hint?: string }

/** Case-insensitive substring match on the label, the hint or the value. */
export const matchesPicker = (option: PickerOption, term: string) => {
  const t = term.trim().toLowerCase()
  return (
    !t ||
    option.label.toLowerCase().includes(t) ||
    option.value.toLowerCase().includes(t) ||
    (option.hint?.toLowerCase().includes(t) ?? false)
  )
}

/**
 * A list to choose one item from, with a search box that narrows it (issue #15: companies and
 * courses of the mirror). Built from native controls, so keyboards and screen readers work as
 * they always do: the search box, then a list box (a select showing several rows) named by the
 * label; the number of matches is announced.
 */
export function SearchablePicker({
  label,
  searchLabel,
  options,
  value,
  onChange,
  required = false,
  error,
  loading = false,
}: {
  label: string
  searchLabel: string
  options: readonly PickerOption[]
  value: string
  onChange: (value: string) => void
  required?: boolean
  error?: string | null
  loading?: boolean
}) {
  const id = useId()
  const [term, setTerm] = useState('')
  const shown = useMemo(() => {
    const matching = options.filter((o) => matchesPicker(o, term))
    // The chosen item stays in the list, so the select never shows a value it does not hold.
    const chosen = options.find((o) => o.value === value)
    return chosen && !matching.includes(chosen) ? [chosen, ...matching] : matching
  }, [options, term, value])
  const countId = `${id}-count`
  const errorId = `${id}-error`

  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={`${id}-list`} className="text-sm font-medium text-slate-800">
        {label}
        {required && (
          <span aria-hidden="true" className="text-red-700">
            {' '}
            *
          </span>
        )}
      </label>
      <input
        type="search"
        aria-label={searchLabel}
        aria-controls={`${id}-list`}
        placeholder={`${searchLabel}...`}
        value={term}
        maxLength={200}
        onChange={(event) => setTerm(event.target.value)}
        className={controlClass}
      />
      <select
        id={`${id}-list`}
        size={6}
        value={value}
        required={required}
        aria-invalid={error ? true : undefined}
        aria-describedby={[countId, error ? errorId : null].filter(Boolean).join(' ')}
        onChange={(event) => onChange(event.target.value)}
        className={cn(controlClass, 'h-auto py-1')}
      >
        {shown.map((option) => (
          <option key={option.value} value={option.value}>
            {option.hint ? `${option.label} (${option.hint})` : option.label}
          </option>
        ))}
      </select>
      <p id={countId} aria-live="polite" className="text-xs text-slate-600">
        {loading ? 'Loading...' : `${shown.length} of ${options.length} shown`}
      </p>
      {error && (
        <p id={errorId} className="text-xs font-medium text-red-700">
          {error}
        </p>
      )}
    </div>
  )
}
