import { Inbox, type LucideIcon } from 'lucide-react'

/**
 * A list with nothing in it: an icon, a title and a line of help.
 * (Shared by the courses, course-requests, companies, users and logs screens.)
 */
export function EmptyState({
  icon: Icon = Inbox,
  title,
  description,
}: {
  icon?: LucideIcon
  title: string
  description?: string
}) {
  return (
    <div className="rounded-lg border border-dashed border-slate-300 bg-white px-6 py-12 text-center">
      <Icon aria-hidden="true" className="mx-auto size-10 text-slate-400" />
      <h2 className="mt-3 text-base font-semibold text-slate-900">{title}</h2>
      {description && <p className="mt-1 text-sm text-slate-600">{description}</p>}
    </div>
  )
}
