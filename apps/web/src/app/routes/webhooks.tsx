import { PermittedPage } from '@/app/permitted-page'
import { WebhooksScreen } from '@/features/webhooks/components/webhooks-screen'

/** /integrations/webhooks (admins, and client users for their company; others go to /dashboard). */
export default function WebhooksRoute() {
  return (
    <PermittedPage permission="webhook.manage" otherwise="dashboard" title="Webhooks">
      <WebhooksScreen />
    </PermittedPage>
  )
}
