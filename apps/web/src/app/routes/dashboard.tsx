import { ContentLayout } from '@/components/layouts/content-layout'
import { logAction } from '@/features/activity/api/log-action'
import { useUser } from '@/features/auth/components/auth-context'
import { DispatchList } from '@/features/dispatches/components/dispatch-list'
import type { UiEventHandler } from '@/features/dispatches/types'

const recordUiEvent: UiEventHandler = (action, details) => void logAction(action, details)

/** DECISIONS.md: /dashboard is the dispatch list screen. */
export default function DashboardRoute() {
  const user = useUser()
  // SPEC §2: Your Dispatches for role client, All Dispatches otherwise.
  const title = user.role === 'client' ? 'Your Dispatches' : 'All Dispatches'
  return (
    <ContentLayout title={title}>
      <DispatchList role={user.role} onEvent={recordUiEvent} />
    </ContentLayout>
  )
}
