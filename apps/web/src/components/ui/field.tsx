import { useId, type ReactNode } from 'react'

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

/** A hint (or, with `error`, an error) under a field, named by the field's aria-describedby; nothing when empty. */
export function FieldNote({ id, text, error = false }: { id: string; text?: ReactNode; error?: boolean }) {
  if (!text) return null
  return (
    <p id={id} className={error ? 'text-xs font-medium text-red-700' : 'text-xs text-slate-600'}>
      {text}
    </p>
  )
}

/** The options of a native select, in the order given. */
export function SelectOptions({ options }: { options: readonly { value: string; label: string }[] }) {
  return options.map((option) => (
    <option key={option.value} value={option.value}>
      {option.label}
    </option>
  ))
}

export const controlClass =
  'h-10 rounded-md border border-slate-300 bg-white px-3 text-sm text-slate-900 shadow-xs placeholder:text-slate-500 focus:border-blue-600 disabled:bg-slate-100'

/** A field's label, with the asterisk of a required field (hidden from screen readers, which hear `required`). */
export function FieldLabel({ htmlFor, label, required }: { htmlFor: string; label: ReactNode; required?: boolean }) {
  return (
    <label htmlFor={htmlFor} className="text-sm font-medium text-slate-800">
      {label}
      {required && (
        <span aria-hidden="true" className="text-red-700">
          {' '}
          *
        </span>
      )}
    </label>
  )
}
