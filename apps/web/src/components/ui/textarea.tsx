import type { ComponentProps, ReactNode } from 'react'
import { cn } from './cn'
import { FieldLabel, FieldNote } from './field-parts'
import { TextLimitNote, useLimitedText } from './text-limit-note'

/**
 * A multi-line text input with its visible label and an optional hint below it. With `limit`
 * it shows the count against the limit and is marked invalid past it (see TextLimitNote).
 */
export function Textarea({
  label,
  hint,
  limit,
  className,
  id,
  ...props
}: Omit<ComponentProps<'textarea'>, 'maxLength'> & { label: string; hint?: ReactNode; limit?: number }) {
  const { inputId, noteId, text, over } = useLimitedText(id, label, props.value, limit)
  const hintId = noteId('hint')
  const limitId = noteId('limit')
  const describedBy = [hint ? hintId : null, limit !== undefined ? limitId : null].filter(Boolean).join(' ')
  return (
    <div className="flex flex-col gap-1.5">
      <FieldLabel htmlFor={inputId} label={label} />
      <textarea
        id={inputId}
        aria-describedby={describedBy || undefined}
        aria-invalid={over || undefined}
        className={cn(
          'min-h-24 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-xs',
          'placeholder:text-slate-500 focus:border-blue-600 disabled:bg-slate-100',
          over && 'border-red-600',
          className,
        )}
        {...props}
      />
      <FieldNote id={hintId} text={hint} />
      {limit !== undefined && <TextLimitNote id={limitId} label={label} value={text} limit={limit} />}
    </div>
  )
}
