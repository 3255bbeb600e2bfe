import { SEARCH_MAX } from '@portal/shared'
import { useId, useMemo, useState, type ReactNode } from 'react'
import { controlClass, FieldLabel } from './field'
import { cn } from './cn'

/** `disabled`: shown (with its hint saying why) but not choosable. */
export type PickerOption = { value: string; label: string; hint?: string; disabled?: boolean }

const optionText = (option: PickerOption) => (option.hint ? `${option.label} (${option.hint})` : option.label)

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
 * A list to choose one item from, with a search box that narrows it (companies and
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
  note,
}: {
  label: string
  searchLabel: string
  options: readonly PickerOption[]
  value: string
  onChange: (value: string) => void
  required?: boolean
  error?: string | null
  loading?: boolean
  /** A line under the list saying more about the choices (e.g. why some cannot be chosen). */
  note?: ReactNode
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
  const chosen = options.find((o) => o.value === value)

  return (
    <div className="flex flex-col gap-1.5">
      <FieldLabel htmlFor={`${id}-list`} label={label} required={required} />
      <input
        type="search"
        aria-label={searchLabel}
        aria-controls={`${id}-list`}
        placeholder={`${searchLabel}...`}
        value={term}
        maxLength={SEARCH_MAX}
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
          // A list row cannot wrap: the title shows a long name in full on hover.
          <option key={option.value} value={option.value} disabled={option.disabled} title={optionText(option)}>
            {optionText(option)}
          </option>
        ))}
      </select>
      <p id={countId} aria-live="polite" className="text-xs text-slate-600">
        {loading ? 'Loading...' : `${shown.length} of ${options.length} shown`}
      </p>
      {/* The chosen item in full, wrapped, however narrow the list is. */}
      {chosen && (
        <p className="text-sm break-words text-slate-800">
          <span className="text-slate-600">Selected: </span>
          <span className="font-medium">{chosen.label}</span>
        </p>
      )}
      {note && <div className="text-xs text-slate-600">{note}</div>}
      {error && (
        <p id={errorId} className="text-xs font-medium text-red-700">
          {error}
        </p>
      )}
    </div>
  )
}
