import { Outlet, useLocation, useNavigate } from 'react-router'
import { AppShell } from '@/components/layouts/app-shell'
import { paths } from '@/config/paths'
import { logAction } from '@/features/activity/api/log-action'
import { NavigationReporter } from '@/features/activity/components/navigation-reporter'
import { useAuthConfig } from '@/features/auth/api/auth-config'
import { useUser, useAuth } from '@/features/auth/components/auth-context'
import { ProtectedRoute } from '@/features/auth/components/protected-route'
import { HeaderActions } from '@/features/alerts/components/header-actions'

/** The signed-in part of the app: guard, shell and activity reporting around every screen. */
export default function AppRoot() {
  return (
    <ProtectedRoute>
      <SignedInShell />
    </ProtectedRoute>
  )
}

function SignedInShell() {
  const user = useUser()
  const { logout } = useAuth()
  const navigate = useNavigate()
  const { pathname } = useLocation()
  const config = useAuthConfig()

  const onLogout = async () => {
    await logout()
    navigate(paths.login.getHref(), { replace: true })
  }

  return (
    <AppShell
      user={user}
      supportEmail={config.data?.supportEmail}
      onHelpClick={() => void logAction('HELP_BUTTON_CLICKED', `User clicked Need help? on ${pathname}`)}
      onLogout={() => void onLogout()}
      headerActions={<HeaderActions />}
    >
      <NavigationReporter />
      <Outlet />
    </AppShell>
  )
}
