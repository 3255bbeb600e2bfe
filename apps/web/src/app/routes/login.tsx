import { useNavigate } from 'react-router'
import { AuthLayout } from '@/components/layouts/auth-layout'
import { Spinner } from '@/components/ui/spinner'
import { APP_NAME } from '@/config/app'
import { paths } from '@/config/paths'
import { DemoAccounts } from '@/features/auth/components/demo-accounts'
import { LoginForm } from '@/features/auth/components/login-form'
import { LoginHighlights } from '@/features/auth/components/login-highlights'
import { SsoDemoAccounts, SsoSignIn } from '@/features/auth/components/sso-sign-in'
import { useRedirectWhenSignedIn } from '@/features/auth/components/use-redirect-when-signed-in'

export default function LoginRoute() {
  const navigate = useNavigate()
  const signedIn = useRedirectWhenSignedIn()
  return (
    <AuthLayout aside={<LoginHighlights />}>
      <title>{`Sign in | ${APP_NAME}`}</title>
      {signedIn ? (
        <Spinner label="Redirecting to your dashboard..." className="justify-center" />
      ) : (
        <>
          <SsoSignIn />
          <LoginForm onSuccess={() => navigate(paths.dashboard.getHref(), { replace: true })} />
          <DemoAccounts />
          <SsoDemoAccounts />
        </>
      )}
    </AuthLayout>
  )
}
