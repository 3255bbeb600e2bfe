import { useSearchParams } from 'react-router'
import { logAction } from '@/features/activity/api/log-action'
import { useUser } from '@/features/auth/components/auth-context'
import { PermittedPage } from '@/app/permitted-page'
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
    <PermittedPage permission="user.manage" otherwise="dashboard" title="Settings">
      <UserManagement currentUserId={user.id} editUserId={params.get('edit')} onEvent={recordUiEvent} />
      {/* Below User Management, its own section. */}
      <div className="mt-8">
        <GlobalAlertSettings />
      </div>
      <div className="mt-8">
        <MfaRoleRulesSection />
        <StaffSignInSettings />
      </div>
    </PermittedPage>
  )
}
