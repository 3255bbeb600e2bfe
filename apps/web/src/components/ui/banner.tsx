import { CircleAlert, CircleCheck, Info } from 'lucide-react'
import type { ReactNode } from 'react'
import { cn } from './cn'

const styles = {
  error: { box: 'border-red-300 bg-red-50 text-red-800', icon: CircleAlert },
  success: { box: 'border-green-300 bg-green-50 text-green-800', icon: CircleCheck },
  info: { box: 'border-blue-200 bg-blue-50 text-blue-900', icon: Info },
} as const

/** Errors are announced at once (role="alert"); other news politely (role="status"). */
export function Banner({
  variant = 'info',
  children,
  className,
}: {
  variant?: keyof typeof styles
  children: ReactNode
  className?: string
}) {
  const { box, icon: Icon } = styles[variant]
  return (
    <div
      role={variant === 'error' ? 'alert' : 'status'}
      className={cn('flex items-start gap-2 rounded-md border px-3 py-2 text-sm', box, className)}
    >
      <Icon aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <div>{children}</div>
    </div>
  )
}
