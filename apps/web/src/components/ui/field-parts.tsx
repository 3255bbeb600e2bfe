import type { ReactNode } from 'react'

/*
 * The pieces of a labelled form control, apart from Field itself, so that a screen with a plain
 * Select or Input does not load Field.
 */

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
