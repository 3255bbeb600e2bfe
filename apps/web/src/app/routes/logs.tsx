import { Navigate } from 'react-router'
import { ContentLayout } from '@/components/layouts/content-layout'
import { paths } from '@/config/paths'
import { logAction } from '@/features/activity/api/log-action'
import { ActivityLogs } from '@/features/activity-logs/components/activity-logs'
import { Authorization } from '@/features/auth/components/authorization'
import type { UiAction } from '@portal/shared'

const recordUiEvent = (action: UiAction, details?: Record<string, unknown>) => void logAction(action, details)

/** docs/product-rules.md §2 /logs (admins; others go to /dashboard). */
export default function LogsRoute() {
  return (
    <Authorization permission="log.read" forbidden={<Navigate to={paths.dashboard.getHref()} replace />}>
      <ContentLayout title="Activity Logs">
        <ActivityLogs onEvent={recordUiEvent} />
      </ContentLayout>
    </Authorization>
  )
}
