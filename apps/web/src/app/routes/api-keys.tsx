import { PermittedPage } from '@/app/permitted-page'
import { ApiKeysScreen } from '@/features/api-keys/components/api-keys-screen'

/** /integrations/api-keys (admins, and client users for their company; others go to /dashboard). */
export default function ApiKeysRoute() {
  return (
    <PermittedPage permission="apiKey.manage" otherwise="dashboard" title="API keys">
      <ApiKeysScreen />
    </PermittedPage>
  )
}
