import type { ReactNode } from 'react'
import { cn } from './cn'

const tones = {
  green: 'bg-green-100 text-green-800 ring-green-600/20',
  yellow: 'bg-yellow-100 text-yellow-800 ring-yellow-600/20',
  red: 'bg-red-100 text-red-800 ring-red-600/20',
  blue: 'bg-blue-100 text-blue-800 ring-blue-600/20',
  neutral: 'bg-slate-100 text-slate-700 ring-slate-500/20',
} as const

export type BadgeTone = keyof typeof tones

/** A short status word. The word carries the meaning; the colour only repeats it. */
export function Badge({
  tone = 'neutral',
  className,
  children,
}: {
  tone?: BadgeTone
  className?: string
  children: ReactNode
}) {
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset',
        tones[tone],
        className,
      )}
    >
      {children}
    </span>
  )
}
