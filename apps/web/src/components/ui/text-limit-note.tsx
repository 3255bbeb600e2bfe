import { limitCounter, tooLongMessage } from '@portal/shared'
import { useId } from 'react'
import { cn } from './cn'

/**
 * What a limited text field knows of itself: its id (the caller's, else a generated one), the ids
 * of its notes, the text as typed and whether it is past the limit.
 */
export function useLimitedText(id: string | undefined, label: string, value: unknown, limit: number | undefined) {
  const generated = useId()
  const inputId = id ?? generated
  const text = String(value ?? '')
  return {
    inputId,
    noteId: (note: 'hint' | 'limit' | 'error') => `${inputId}-${note}`,
    text,
    over: limit !== undefined && tooLongMessage(label, text, limit) !== null,
  }
}

/**
 * Under a limited text field: the count against the limit ("4,980 / 5,000"), and past the limit
 * what is wrong. The field never cuts what was typed or pasted (no maxLength): a form refuses
 * to send it instead, and the server refuses it too.
 */
export function TextLimitNote({
  id,
  label,
  value,
  limit,
}: {
  id: string
  label: string
  value: string
  limit: number
}) {
  const problem = tooLongMessage(label, value, limit)
  return (
    <div id={id} className="flex flex-wrap justify-between gap-x-3 text-xs">
      <p className={problem ? 'font-medium text-red-700' : 'sr-only'}>{problem}</p>
      <p className={cn('tabular-nums', problem ? 'font-medium text-red-700' : 'text-slate-600')}>
        {limitCounter(value, limit)}
      </p>
    </div>
  )
}
