import type { ReactNode } from 'react'

/** A legend and a checkbox for each option (two columns from small screens); `label` names an option's box. */
export function CheckboxGroup({
  legend,
  options,
  checked,
  onChange,
  label,
}: {
  legend: string
  options: readonly string[]
  checked: string[]
  onChange: (checked: string[]) => void
  label: (option: string) => ReactNode
}) {
  const toggle = (option: string) =>
    onChange(checked.includes(option) ? checked.filter((o) => o !== option) : [...checked, option])
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-800">{legend}</legend>
      <div className="mt-2 grid gap-1 sm:grid-cols-2">
        {options.map((option) => (
          <label key={option} className="flex items-center gap-2 text-sm text-slate-800">
            <input type="checkbox" checked={checked.includes(option)} onChange={() => toggle(option)} />
            {label(option)}
          </label>
        ))}
      </div>
    </fieldset>
  )
}
