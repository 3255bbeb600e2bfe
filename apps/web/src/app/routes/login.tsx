import type { SecondStep as Step } from '@portal/shared'
import { lazy, Suspense, useState } from 'react'
import { useNavigate } from 'react-router'
import { AuthLayout } from '@/components/layouts/auth-layout'
import { Spinner } from '@/components/ui/spinner'
import { APP_NAME } from '@/config/app'
import { paths } from '@/config/paths'
import { LoginForm } from '@/features/auth/components/login-form'
import { LoginHighlights } from '@/features/auth/components/login-highlights'
import { SsoSignIn } from '@/features/auth/components/sso-sign-in'
import { useRedirectWhenSignedIn } from '@/features/auth/components/use-redirect-when-signed-in'

/** The demo's account boxes load apart: a deployment outside demo mode never shows them. */
const DemoAccounts = lazy(() =>
  import('@/features/auth/components/demo-accounts').then((m) => ({ default: m.DemoAccounts })),
)
const SsoDemoAccounts = lazy(() =>
  import('@/features/auth/components/sso-demo-accounts').then((m) => ({ default: m.SsoDemoAccounts })),
)
/** Below the form, and only in browsers with passkeys: it need not hold up the form. */
const PasskeySignIn = lazy(() =>
  import('@/features/auth/components/passkey-sign-in').then((m) => ({ default: m.PasskeySignIn })),
)
/** The second step loads once a password (or a provider) has been accepted: most visits never need it. */
const SecondStep = lazy(() => import('@/features/auth/components/second-step').then((m) => ({ default: m.SecondStep })))

export default function LoginRoute() {
  const navigate = useNavigate()
  const signedIn = useRedirectWhenSignedIn()
  // After a right password (or a single sign-on answer): the second factor, or its set-up.
  const [step, setStep] = useState<Step | null>(null)
  const toDashboard = () => navigate(paths.dashboard.getHref(), { replace: true })
  return (
    <AuthLayout aside={<LoginHighlights />}>
      <title>{`Sign in | ${APP_NAME}`}</title>
      {signedIn ? (
        <Spinner label="Redirecting to your dashboard..." className="justify-center" />
      ) : step ? (
        <Suspense fallback={<Spinner label="Loading..." className="justify-center" />}>
          <SecondStep step={step} onSignedIn={toDashboard} onCancel={() => setStep(null)} />
        </Suspense>
      ) : (
        <>
          <SsoSignIn onSecondStep={setStep} />
          <LoginForm onSuccess={toDashboard} onSecondStep={setStep} />
          <Suspense fallback={null}>
            <PasskeySignIn onSignedIn={toDashboard} />
          </Suspense>
          <Suspense fallback={null}>
            <DemoAccounts />
            <SsoDemoAccounts />
          </Suspense>
        </>
      )}
    </AuthLayout>
  )
}
