import { ownCompanyOnly } from '@portal/shared'
import { lazy, Suspense } from 'react'
import { ContentLayout } from '@/components/layouts/content-layout'
import { Spinner } from '@/components/ui/spinner'
import { logAction } from '@/features/activity/api/log-action'
import { DispatchAlertBadges } from '@/features/alerts/components/dispatch-alert-badges'
import { useUser } from '@/features/auth/components/auth-context'
import { useListDashboardCharts } from '@/features/charts/api/get-charts'
import { DispatchList } from '@/features/dispatches/components/dispatch-list'
import type { BulkSlot, RowBadges } from '@/features/dispatches/types'
import type { UiEventHandler } from '@/types/ui-event'

/**
 * The chart panels load after the list, in their own chunk, so the first visit to
 * /dashboard stays within 5 KiB gzip of the pre-charts build (scripts/check-bundle-budget.mjs).
 */
const DashboardCharts = lazy(() =>
  import('@/features/charts/components/dashboard-charts').then((m) => ({ default: m.DashboardCharts })),
)

/**
 * The bulk actions (with their date fields) load when a first dispatch is selected: most visits
 * select nothing, and the first visit keeps its budget.
 */
const BulkActions = lazy(() =>
  import('@/features/renewals/components/bulk-actions').then((m) => ({ default: m.BulkActions })),
)

const recordUiEvent: UiEventHandler = (action, details) => void logAction(action, details)
// "Near cap" and "Expires soon" from the alerts feature.
const rowBadges: RowBadges = (id, pageIds) => <DispatchAlertBadges id={id} pageIds={pageIds} />
// Enable, disable, cap, expiry and renewals for the selected dispatches, from the renewals feature.
const bulk: BulkSlot = (selection) => (
  <Suspense fallback={<Spinner label="Loading actions..." />}>
    <BulkActions selection={selection} />
  </Suspense>
)

/** docs/product-decisions.md D6: /dashboard is the dispatch list screen. */
export default function DashboardRoute() {
  const user = useUser()
  // The chart data is asked for at once, while the chart chunk loads.
  useListDashboardCharts()
  // docs/product-rules.md §2: Your Dispatches for role client, All Dispatches otherwise.
  const title = ownCompanyOnly(user.role) ? 'Your Dispatches' : 'All Dispatches'
  return (
    <ContentLayout title={title}>
      <DispatchList
        role={user.role}
        onEvent={recordUiEvent}
        rowBadges={rowBadges}
        bulk={bulk}
        // The charts over the list's filters, above the long list where they are seen.
        charts={
          <Suspense fallback={<ChartsPlaceholder />}>
            <DashboardCharts role={user.role} />
          </Suspense>
        }
      />
    </ContentLayout>
  )
}

/**
 * Two blank panels of a chart panel's height (438 px with a 260 px chart, measured at 1280 and
 * 390 px wide), side by side from lg up as the charts are, so the page does not jump when they come.
 */
function ChartsPlaceholder() {
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <div className="grid h-110 place-items-center rounded-lg border border-slate-200 bg-white shadow-xs">
        <Spinner label="Loading charts..." />
      </div>
      <div aria-hidden="true" className="h-110 rounded-lg border border-slate-200 bg-white shadow-xs" />
    </div>
  )
}
