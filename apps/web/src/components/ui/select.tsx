import { useId, type ComponentProps } from 'react'
import { cn } from './cn'

export type SelectOption = { value: string; label: string }

/** Options for a list of numbers (page sizes), each labelled with itself. */
export const numberOptions = (values: readonly number[]): SelectOption[] =>
  values.map((value) => ({ value: String(value), label: String(value) }))

/** Options for labels keyed by value, in the record's order; `all`, the choice of no filter, first. */
export const labelOptions = (labels: Readonly<Record<string, string>>, all?: SelectOption): SelectOption[] => [
  ...(all ? [all] : []),
  ...Object.entries(labels).map(([value, label]) => ({ value, label })),
]

/**
 * A native select with its visible label. It keeps its own label and options (not FieldLabel and
 * SelectOptions) so that the dashboard's first visit does not load the field pieces.
 */
export function Select({
  label,
  options,
  className,
  id,
  ...props
}: Omit<ComponentProps<'select'>, 'children'> & { label: string; options: readonly SelectOption[] }) {
  const generated = useId()
  const selectId = id ?? generated
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={selectId} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      <select
        id={selectId}
        className={cn(
          'h-10 rounded-md border border-slate-300 bg-white px-3 text-sm text-slate-900 shadow-xs',
          'focus:border-blue-600 disabled:bg-slate-100',
          className,
        )}
        {...props}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  )
}
