import type { ReactNode } from 'react'
import { Breadcrumb, type Crumb } from '@/components/ui/breadcrumb'
import { APP_NAME } from '@/config/app'

/**
 * A detail screen: its title (also the document title) under the breadcrumb of the screens above
 * it, with the screen's actions beside the title, then its content. `className` sets the page's
 * width and spacing; `align` how the actions line up with the title.
 */
export function DetailLayout({
  title,
  above,
  className,
  align,
  actions,
  children,
}: {
  title: string
  above: Crumb[]
  className: string
  align: 'items-start' | 'items-center'
  actions: ReactNode
  children: ReactNode
}) {
  return (
    <>
      <title>{`${title} | ${APP_NAME}`}</title>
      <div className={className}>
        <Breadcrumb items={[...above, { label: title }]} />
        <div className={`flex flex-wrap ${align} justify-between gap-3`}>
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
          {actions}
        </div>
        {children}
      </div>
    </>
  )
}
