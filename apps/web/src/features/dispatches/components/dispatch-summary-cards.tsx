import type { DispatchSummary } from '@portal/shared'
import { CircleCheck, Send, Users } from 'lucide-react'
import { Skeleton } from '@/components/ui/skeleton'
import { LicenseUsageCard } from './license-usage-card'
import { SummaryCard } from './summary-card'

const figure = (value: number) => (
  <p className="text-2xl font-semibold text-slate-900">{value.toLocaleString('en-US')}</p>
)

/** docs/product-rules.md §2: Total Dispatches, Active Dispatches, Registrations, License Usage. */
export function DispatchSummaryCards({ summary, showActive }: { summary: DispatchSummary; showActive: boolean }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
      <SummaryCard title="Total Dispatches" icon={Send}>
        {figure(summary.totalDispatches)}
      </SummaryCard>
      <SummaryCard title="Active Dispatches" icon={CircleCheck}>
        {figure(summary.activeDispatches)}
      </SummaryCard>
      <SummaryCard title="Registrations" icon={Users}>
        {figure(summary.registrations)}
      </SummaryCard>
      <LicenseUsageCard summary={summary} showActive={showActive} />
    </div>
  )
}

export function DispatchSummarySkeleton() {
  return (
    <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
      {[0, 1, 2, 3].map((i) => (
        <div key={i} className="rounded-lg border border-slate-200 bg-white p-4">
          <Skeleton className="h-4 w-28" />
          <Skeleton className="mt-3 h-7 w-16" />
        </div>
      ))}
    </div>
  )
}
