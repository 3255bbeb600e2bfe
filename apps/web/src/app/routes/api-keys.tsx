import { Navigate } from 'react-router'
import { ContentLayout } from '@/components/layouts/content-layout'
import { paths } from '@/config/paths'
import { Authorization } from '@/features/auth/components/authorization'
import { ApiKeysScreen } from '@/features/api-keys/components/api-keys-screen'

/** /integrations/api-keys (admins, and client users for their company; others go to /dashboard). */
export default function ApiKeysRoute() {
  return (
    <Authorization permission="apiKey.manage" forbidden={<Navigate to={paths.dashboard.getHref()} replace />}>
      <ContentLayout title="API keys">
        <ApiKeysScreen />
      </ContentLayout>
    </Authorization>
  )
}
