import { Navigate } from 'react-router'
import { ContentLayout } from '@/components/layouts/content-layout'
import { paths } from '@/config/paths'
import { Authorization } from '@/features/auth/components/authorization'
import { WebhooksScreen } from '@/features/webhooks/components/webhooks-screen'

/** /integrations/webhooks (admins, and client users for their company; others go to /dashboard). */
export default function WebhooksRoute() {
  return (
    <Authorization permission="webhook.manage" forbidden={<Navigate to={paths.dashboard.getHref()} replace />}>
      <ContentLayout title="Webhooks">
        <WebhooksScreen />
      </ContentLayout>
    </Authorization>
  )
}
