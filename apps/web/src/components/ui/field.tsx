import { useId, type ReactNode } from 'react'
import { FieldLabel, FieldNote } from './field-parts'

export { controlClass, FieldLabel, FieldNote, SelectOptions } from './field-parts'

/**
 * A form control with its label, an optional hint and an optional error, wired with
 * aria-describedby and aria-invalid. `children` receives the props to spread on the control.
 */
export function Field({
  label,
  hint,
  error,
  required = false,
  children,
}: {
  label: string
  hint?: ReactNode
  error?: string | null
  required?: boolean
  children: (control: {
    id: string
    'aria-describedby'?: string
    'aria-invalid'?: boolean
    required?: boolean
  }) => ReactNode
}) {
  const id = useId()
  const hintId = `${id}-hint`
  const errorId = `${id}-error`
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ')
  return (
    <div className="flex flex-col gap-1.5">
      <FieldLabel htmlFor={id} label={label} required={required} />
      {children({
        id,
        ...(describedBy ? { 'aria-describedby': describedBy } : {}),
        ...(error ? { 'aria-invalid': true } : {}),
        ...(required ? { required: true } : {}),
      })}
      <FieldNote id={hintId} text={hint} />
      <FieldNote id={errorId} text={error} error />
    </div>
  )
}
