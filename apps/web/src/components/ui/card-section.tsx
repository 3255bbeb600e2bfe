import type { ReactNode } from 'react'
import { cn } from './cn'

/** A titled card of a detail or settings screen: a white panel whose heading names the section. */
export function CardSection({
  id,
  title,
  className,
  children,
}: {
  /** The heading's id, which labels the section. */
  id: string
  title: ReactNode
  /** Spacing of the card's content (e.g. `space-y-3`). */
  className?: string
  children: ReactNode
}) {
  return (
    <TitledSection
      id={id}
      title={title}
      className={cn(className, 'rounded-lg border border-slate-200 bg-white p-6 shadow-xs')}
    >
      {children}
    </TitledSection>
  )
}

/** A section named by its heading (an h2 of a detail or settings screen); `className` is the whole section's. */
export function TitledSection({
  id,
  title,
  className,
  children,
}: {
  id: string
  title: ReactNode
  className: string
  children: ReactNode
}) {
  return (
    <section aria-labelledby={id} className={className}>
      <h2 id={id} className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      {children}
    </section>
  )
}
