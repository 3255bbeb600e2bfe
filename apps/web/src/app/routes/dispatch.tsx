import { useParams } from 'react-router'
import { logAction } from '@/features/activity/api/log-action'
import { useUser } from '@/features/auth/components/auth-context'
import { DispatchCharts } from '@/features/charts/components/dispatch-charts'
import { DispatchDetails } from '@/features/dispatches/components/dispatch-details'
import type { UiEventHandler } from '@/types/ui-event'
import { CompletionReport } from '@/features/reports/components/completion-report'
import { DispatchDeliverySection } from '@/features/delivery/components/dispatch-delivery'
import { LicenceCountCard } from '@/features/delivery/components/licence-count-card'
import { LtiCard } from '@/features/delivery/components/lti-card'
import { can } from '@portal/shared'

const recordUiEvent: UiEventHandler = (action, details) => void logAction(action, details)

/** docs/product-rules.md §2 /dispatches/{id}: the dispatch's details with its completion report below. */
export default function DispatchRoute() {
  const { id = '' } = useParams()
  const user = useUser()
  return (
    <DispatchDetails key={id} id={id} role={user.role} onEvent={recordUiEvent}>
      {/* How the client's LMS launches it: delivery settings and LTI data. */}
      <LicenceCountCard dispatchId={id} />
      <DispatchDeliverySection dispatchId={id} canEdit={can(user.role, 'delivery.update')} />
      {can(user.role, 'lti.read') && <LtiCard dispatchId={id} />}
      {/* Completions per week and the status breakdown. */}
      <DispatchCharts dispatchId={id} />
      <CompletionReport dispatchId={id} />
    </DispatchDetails>
  )
}
