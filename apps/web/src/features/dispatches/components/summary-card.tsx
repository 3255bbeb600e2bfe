import type { LucideIcon } from 'lucide-react'
import type { ReactNode } from 'react'

export function SummaryCard({ title, icon: Icon, children }: { title: string; icon: LucideIcon; children: ReactNode }) {
  return (
    <section aria-label={title} className="rounded-lg border border-slate-200 bg-white p-4 shadow-xs">
      <div className="flex items-center justify-between gap-2">
        <h2 className="text-sm font-medium text-slate-600">{title}</h2>
        <Icon aria-hidden="true" className="size-5 text-blue-700" />
      </div>
      <div className="mt-2">{children}</div>
    </section>
  )
}
