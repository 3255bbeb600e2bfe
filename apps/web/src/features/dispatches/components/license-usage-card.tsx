import type { DispatchSummary } from '@portal/shared'
import { Gauge } from 'lucide-react'
import { OverusedBadge, UsageBar } from '@/components/ui/usage-bar'
import { SummaryCard } from './summary-card'

/**
 * docs/product-rules.md §2 License usage: capped registrations over capped capacity with a coloured bar;
 * uncapped dispatches counted apart; staff also see the active registrations, next to the
 * historical figure when the two differ.
 */
export function LicenseUsageCard({ summary, showActive }: { summary: DispatchSummary; showActive: boolean }) {
  const percent = summary.usagePercent
  const active = showActive ? summary.activeRegistrations : undefined
  return (
    <SummaryCard title="License Usage" icon={Gauge}>
      {/* The figure and its bar share a line, so this card no longer sets a tall row. */}
      {percent === null ? (
        <p className="text-2xl font-semibold text-slate-900">-</p>
      ) : (
        <div className="flex items-center gap-3">
          <p className="text-2xl font-semibold text-slate-900">{percent}%</p>
          <OverusedBadge percent={percent} />
          <div className="min-w-0 flex-1">
            <UsageBar percent={percent} label="License usage" />
          </div>
        </div>
      )}
      {percent !== null && (
        <p className="mt-1 text-xs text-slate-600">
          {summary.cappedRegistrations.toLocaleString('en-US')} of {summary.cappedCapacity.toLocaleString('en-US')}{' '}
          licenses used
        </p>
      )}
      {percent === null && <p className="mt-1 text-xs text-slate-600">No dispatch has a license cap</p>}
      <p className="mt-0.5 text-xs text-slate-600">
        Unlimited active licenses: <span className="font-medium text-slate-900">{summary.unlimitedActive}</span>
      </p>
      {active !== undefined && (
        <p className="mt-0.5 text-xs text-slate-600">
          {active === summary.registrations ? (
            <>
              Active registrations: <span className="font-medium text-slate-900">{active.toLocaleString('en-US')}</span>
            </>
          ) : (
            <>
              Historical:{' '}
              <span className="font-medium text-slate-900">{summary.registrations.toLocaleString('en-US')}</span> /
              Active: <span className="font-medium text-slate-900">{active.toLocaleString('en-US')}</span>
            </>
          )}
        </p>
      )}
    </SummaryCard>
  )
}
