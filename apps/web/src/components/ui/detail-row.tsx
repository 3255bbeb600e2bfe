import type { ReactNode } from 'react'

/**
 * The row of a detail list (`dl`) a screen uses: its name and value, laid out by the screen's
 * classes for the row and its two cells.
 */
export function detailRow(row: string | undefined, name: string, value: string) {
  return function DetailRow({ label, children }: { label: ReactNode; children: ReactNode }) {
    return (
      <div className={row}>
        <dt className={name}>{label}</dt>
        <dd className={value}>{children}</dd>
      </div>
    )
  }
}

/** A name above its value, for settings and details cards. */
export const StackedDetail = detailRow(undefined, 'text-sm font-medium text-slate-600', 'mt-1 text-sm text-slate-900')
