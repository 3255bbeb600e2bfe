import { useId, type ComponentProps } from 'react'
import { cn } from './cn'

/** A text input with its visible label. */
export function Input({ label, className, id, ...props }: ComponentProps<'input'> & { label: string }) {
  const generated = useId()
  const inputId = id ?? generated
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={inputId} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      <input
        id={inputId}
        className={cn(
          'h-10 rounded-md border border-slate-300 bg-white px-3 text-sm text-slate-900 shadow-xs',
          'placeholder:text-slate-500 focus:border-blue-600 disabled:bg-slate-100',
          className,
        )}
        {...props}
      />
    </div>
  )
}
