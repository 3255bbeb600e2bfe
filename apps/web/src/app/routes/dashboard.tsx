import { ownCompanyOnly } from '@portal/shared'
import { ContentLayout } from '@/components/layouts/content-layout'
import { logAction } from '@/features/activity/api/log-action'
import { DispatchAlertBadges } from '@/features/alerts/components/dispatch-alert-badges'
import { useUser } from '@/features/auth/components/auth-context'
import { DashboardCharts } from '@/features/charts/components/dashboard-charts'
import { DispatchList } from '@/features/dispatches/components/dispatch-list'
import type { RowBadges } from '@/features/dispatches/types'
import type { UiEventHandler } from '@/types/ui-event'

const recordUiEvent: UiEventHandler = (action, details) => void logAction(action, details)
// Issue #17: "Near cap" and "Expires soon" from the alerts feature.
const rowBadges: RowBadges = (id, pageIds) => <DispatchAlertBadges id={id} pageIds={pageIds} />

/** DECISIONS.md: /dashboard is the dispatch list screen. */
export default function DashboardRoute() {
  const user = useUser()
  // SPEC §2: Your Dispatches for role client, All Dispatches otherwise.
  const title = ownCompanyOnly(user.role) ? 'Your Dispatches' : 'All Dispatches'
  return (
    <ContentLayout title={title}>
      <DispatchList role={user.role} onEvent={recordUiEvent} rowBadges={rowBadges} />
      {/* Issue #16: charts over the list's filters. */}
      <div className="mt-6">
        <DashboardCharts role={user.role} />
      </div>
    </ContentLayout>
  )
}
