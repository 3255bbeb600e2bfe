import { cn } from './cn'

/**
 * A horizontal bar for a percentage. Values above 100 fill the bar; the text alternative
 * still tells the real figure.
 */
export function ProgressBar({
  value,
  label,
  barClassName,
  className,
}: {
  value: number
  label: string
  barClassName?: string
  className?: string
}) {
  const filled = Math.min(Math.max(value, 0), 100)
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={filled}
      aria-valuetext={`${value}%`}
      className={cn('h-2 w-full overflow-hidden rounded-full bg-slate-200', className)}
    >
      <div className={cn('h-full rounded-full bg-blue-600', barClassName)} style={{ width: `${filled}%` }} />
    </div>
  )
}
