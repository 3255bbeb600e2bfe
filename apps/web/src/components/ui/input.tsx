import { textLength } from '@portal/shared'
import type { ComponentProps } from 'react'
import { cn } from './cn'
import { controlClass, FieldLabel, FieldNote } from './field-parts'
import { TextLimitNote, useLimitedText } from './text-limit-note'

/** A one-line field's count shows once this share of its limit is used (short text needs no counter before). */
const COUNT_FROM = 0.8

/**
 * A text input with its visible label. With `limit` it never cuts what is typed or pasted: the
 * count shows near the limit and the field is marked invalid past it (see TextLimitNote).
 * `error` is a message of the form's own checks, shown under the field.
 */
export function Input({
  label,
  limit,
  error,
  className,
  id,
  ...props
}: Omit<ComponentProps<'input'>, 'maxLength'> & { label: string; limit?: number; error?: string | null }) {
  const { inputId, noteId, text, over } = useLimitedText(id, label, props.value, limit)
  const limitId = noteId('limit')
  const errorId = noteId('error')
  const counted = limit !== undefined && (over || textLength(text) >= limit * COUNT_FROM)
  const describedBy = [props['aria-describedby'], counted ? limitId : null, error ? errorId : null]
    .filter(Boolean)
    .join(' ')
  return (
    <div className="flex flex-col gap-1.5">
      <FieldLabel htmlFor={inputId} label={label} />
      <input
        id={inputId}
        className={cn(controlClass, (over || error) && 'border-red-600', className)}
        {...props}
        aria-describedby={describedBy || undefined}
        aria-invalid={over || error ? true : props['aria-invalid']}
      />
      <FieldNote id={errorId} text={error} error />
      {counted && <TextLimitNote id={limitId} label={label} value={text} limit={limit} />}
    </div>
  )
}
