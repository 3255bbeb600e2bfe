import { Navigate, useSearchParams } from 'react-router'
import { ContentLayout } from '@/components/layouts/content-layout'
import { paths } from '@/config/paths'
import { logAction } from '@/features/activity/api/log-action'
import { useUser } from '@/features/auth/components/auth-context'
import { Authorization } from '@/features/auth/components/authorization'
import { UserManagement } from '@/features/users/components/user-management'
import { GlobalAlertSettings } from '@/features/alerts/components/alert-settings-section'
import { MfaRoleRulesSection } from '@/features/auth/components/admin-security'
import { StaffSignInSettings } from '@/features/sso/components/staff-sign-in-settings'
import type { UiAction } from '@portal/shared'

const recordUiEvent = (action: UiAction, details?: Record<string, unknown>) => void logAction(action, details)

/** docs/product-rules.md §2 Settings (admins; others go to /dashboard). `?edit={userId}` opens that user's form. */
export default function SettingsRoute() {
  const user = useUser()
  const [params] = useSearchParams()
  return (
    <Authorization permission="user.manage" forbidden={<Navigate to={paths.dashboard.getHref()} replace />}>
      <ContentLayout title="Settings">
        <UserManagement currentUserId={user.id} editUserId={params.get('edit')} onEvent={recordUiEvent} />
        {/* Below User Management, its own section. */}
        <div className="mt-8">
          <GlobalAlertSettings />
        </div>
        <div className="mt-8">
          <MfaRoleRulesSection />
          <StaffSignInSettings />
        </div>
      </ContentLayout>
    </Authorization>
  )
}
