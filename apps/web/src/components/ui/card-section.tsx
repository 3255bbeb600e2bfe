import type { ReactNode } from 'react'
import { cn } from './cn'

type SectionProps = {
  /** The heading's id, which labels the section. */
  id: string
  title: ReactNode
  /**
   * What stands on the heading's row, after it (the section's action, a link, a badge): the
   * heading and it then share a row, by default with the action pushed to the far end.
   */
  aside?: ReactNode
  /** The layout of the heading's row, when there is an `aside`. */
  headerClassName?: string
  children: ReactNode
}

/** A titled card of a detail or settings screen: a white panel whose heading names the section. */
export function CardSection({
  className,
  ...section
}: SectionProps & {
  /** Spacing of the card's content (e.g. `space-y-3`). */
  className?: string
}) {
  return (
    <TitledSection
      {...section}
      className={cn(className, 'rounded-lg border border-slate-200 bg-white p-6 shadow-xs')}
    />
  )
}

/** A section named by its heading (an h2 of a detail or settings screen); `className` is the whole section's. */
export function TitledSection({
  id,
  title,
  aside,
  headerClassName = 'flex flex-wrap items-center justify-between gap-3',
  className,
  children,
}: SectionProps & { className: string }) {
  const heading = (
    <h2 id={id} className="text-lg font-semibold text-slate-900">
      {title}
    </h2>
  )
  return (
    <section aria-labelledby={id} className={className}>
      {aside === undefined ? (
        heading
      ) : (
        <div className={headerClassName}>
          {heading}
          {aside}
        </div>
      )}
      {children}
    </section>
  )
}
