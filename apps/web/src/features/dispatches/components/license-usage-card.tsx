import type { DispatchSummary } from '@portal/shared'
import { Gauge } from 'lucide-react'
import { OverusedBadge, UsageBar } from './usage-bar'
import { SummaryCard } from './summary-card'

/**
 * SPEC §2 License usage: capped registrations over capped capacity with a coloured bar;
 * uncapped dispatches counted apart; staff also see the active registrations, next to the
 * historical figure when the two differ.
 */
export function LicenseUsageCard({ summary, showActive }: { summary: DispatchSummary; showActive: boolean }) {
  const percent = summary.usagePercent
  const active = showActive ? summary.activeRegistrations : undefined
  return (
    <SummaryCard title="License Usage" icon={Gauge}>
      {percent === null ? (
        <p className="text-2xl font-semibold text-slate-900">-</p>
      ) : (
        <div className="flex flex-wrap items-center gap-2">
          <p className="text-2xl font-semibold text-slate-900">{percent}%</p>
          <OverusedBadge percent={percent} />
        </div>
      )}
      {percent !== null && (
        <div className="mt-2 space-y-1">
          <UsageBar percent={percent} label="License usage" />
          <p className="text-xs text-slate-600">
            {summary.cappedRegistrations.toLocaleString('en-US')} of {summary.cappedCapacity.toLocaleString('en-US')}{' '}
            licenses used
          </p>
        </div>
      )}
      {percent === null && <p className="mt-1 text-xs text-slate-600">No dispatch has a license cap</p>}
      <p className="mt-1 text-xs text-slate-600">
        Unlimited active licenses: <span className="font-medium text-slate-900">{summary.unlimitedActive}</span>
      </p>
      {active !== undefined && (
        <p className="mt-1 text-xs text-slate-600">
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
