import type { SecondStep as Step } from '@portal/shared'
import { useState } from 'react'
import { useNavigate } from 'react-router'
import { AuthLayout } from '@/components/layouts/auth-layout'
import { Spinner } from '@/components/ui/spinner'
import { APP_NAME } from '@/config/app'
import { paths } from '@/config/paths'
import { DemoAccounts } from '@/features/auth/components/demo-accounts'
import { LoginForm } from '@/features/auth/components/login-form'
import { LoginHighlights } from '@/features/auth/components/login-highlights'
import { PasskeySignIn } from '@/features/auth/components/passkey-sign-in'
import { SsoDemoAccounts, SsoSignIn } from '@/features/auth/components/sso-sign-in'
import { useRedirectWhenSignedIn } from '@/features/auth/components/use-redirect-when-signed-in'
import { SecondStep } from '@/features/auth/components/second-step'

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
        <SecondStep step={step} onSignedIn={toDashboard} onCancel={() => setStep(null)} />
      ) : (
        <>
          <SsoSignIn onSecondStep={setStep} />
          <LoginForm onSuccess={toDashboard} onSecondStep={setStep} />
          <PasskeySignIn onSignedIn={toDashboard} />
          <DemoAccounts />
          <SsoDemoAccounts />
        </>
      )}
    </AuthLayout>
  )
}
