import { CircleAlert, CircleCheck } from 'lucide-react'
import { cn } from './cn'

/** A short notice in the corner of the screen; errors are announced at once, news politely. */
export function Toast({ message, variant = 'success' }: { message: string; variant?: 'success' | 'error' }) {
  const Icon = variant === 'error' ? CircleAlert : CircleCheck
  return (
    <div
      role={variant === 'error' ? 'alert' : 'status'}
      className={cn(
        'fixed right-4 bottom-4 z-[60] flex max-w-sm items-start gap-2 rounded-md border px-4 py-3 text-sm shadow-lg',
        variant === 'error' ? 'border-red-300 bg-red-50 text-red-800' : 'border-green-300 bg-green-50 text-green-800',
      )}
    >
      <Icon aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <span>{message}</span>
    </div>
  )
}
