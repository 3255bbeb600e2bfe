import { useId, type ComponentProps, type ReactNode } from 'react'
import { cn } from './cn'

/** A multi-line text input with its visible label and an optional hint below it. */
export function Textarea({
  label,
  hint,
  className,
  id,
  ...props
}: ComponentProps<'textarea'> & { label: string; hint?: ReactNode }) {
  const generated = useId()
  const inputId = id ?? generated
  const hintId = `${inputId}-hint`
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={inputId} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      <textarea
        id={inputId}
        aria-describedby={hint ? hintId : undefined}
        className={cn(
          'min-h-24 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-xs',
          'placeholder:text-slate-500 focus:border-blue-600 disabled:bg-slate-100',
          className,
        )}
        {...props}
      />
      {hint && (
        <p id={hintId} className="text-xs text-slate-600">
          {hint}
        </p>
      )}
    </div>
  )
}
