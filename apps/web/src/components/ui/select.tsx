import { useId, type ComponentProps } from 'react'
import { cn } from './cn'
import { controlClass, FieldLabel, SelectOptions } from './field'

export type SelectOption = { value: string; label: string }

/** Options for a list of numbers (page sizes), each labelled with itself. */
export const numberOptions = (values: readonly number[]): SelectOption[] =>
  values.map((value) => ({ value: String(value), label: String(value) }))

/** A native select with its visible label. */
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
      <FieldLabel htmlFor={selectId} label={label} />
      <select id={selectId} className={cn(controlClass, className)} {...props}>
        <SelectOptions options={options} />
      </select>
    </div>
  )
}
