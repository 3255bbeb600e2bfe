import { logAction } from '@/features/activity/api/log-action'
import { ActivityLogs } from '@/features/activity-logs/components/activity-logs'
import { PermittedPage } from '@/app/permitted-page'
import type { UiAction } from '@portal/shared'

const recordUiEvent = (action: UiAction, details?: Record<string, unknown>) => void logAction(action, details)

/** docs/product-rules.md §2 /logs (admins; others go to /dashboard). */
export default function LogsRoute() {
  return (
    <PermittedPage permission="log.read" otherwise="dashboard" title="Activity Logs">
      <ActivityLogs onEvent={recordUiEvent} />
    </PermittedPage>
  )
}
