import { useId, type ComponentProps } from 'react'
import { cn } from './cn'
import { controlClass, FieldLabel, SelectOptions } from './field'

export type SelectOption = { value: string; label: string }

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
