import { cn } from './cn'

/** An on/off switch (role="switch"); the label names it and the state is announced. */
export function Switch({
  checked,
  onChange,
  label,
  disabled = false,
}: {
  checked: boolean
  onChange: (checked: boolean) => void
  label: string
  disabled?: boolean
}) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      aria-label={label}
      disabled={disabled}
      onClick={() => onChange(!checked)}
      className={cn(
        'relative inline-flex h-6 w-11 shrink-0 items-center rounded-full border-2 border-transparent transition-colors',
        'disabled:cursor-not-allowed disabled:opacity-60',
        checked ? 'bg-blue-700' : 'bg-slate-300',
      )}
    >
      <span
        aria-hidden="true"
        className={cn(
          'inline-block size-5 rounded-full bg-white shadow transition-transform',
          checked ? 'translate-x-5' : 'translate-x-0',
        )}
      />
    </button>
  )
}

/** A switch with its name shown beside it; screen readers hear the switch's own label, not the text twice. */
export function LabelledSwitch({ text, ...props }: Parameters<typeof Switch>[0] & { text?: string }) {
  return (
    <div className="flex items-center gap-3 text-sm">
      <Switch {...props} />
      <span aria-hidden="true">{text ?? props.label}</span>
    </div>
  )
}
