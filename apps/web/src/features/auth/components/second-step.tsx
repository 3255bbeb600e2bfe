import type { SecondStep as Step, SessionResponse, TotpEnrolment } from '@portal/shared'
import { useEffect, useRef, useState, type FormEvent } from 'react'
import { Banner } from '@/components/ui/banner'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { Spinner } from '@/components/ui/spinner'
import { errorMessage } from '@/lib/api-error'
import { tokenStorage } from '@/lib/token-storage'
import { confirmRequiredEnrolment, startRequiredEnrolment, verifyRecoveryCode, verifyTotp } from '../api/mfa-api'
import { passkeyError, verifyPasskeyStep } from '../api/passkeys-api'
import { useAttempt } from '../hooks/use-attempt'
import { RecoveryCodesList, TotpSetup } from './totp-setup'

/**
 * The sign-in screen after a right password: the code of the authenticator app (or a recovery
 * code), or, when the account must have a factor and has none, setting one up. Nothing else of
 * the portal opens until it is done: the server issues the session only here.
 */
export function SecondStep({
  step,
  onSignedIn,
  onCancel,
}: {
  step: Step
  onSignedIn: () => void
  onCancel: () => void
}) {
  const signedIn = (session: SessionResponse) => {
    tokenStorage.setSession(session)
    onSignedIn()
  }
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
      {step.kind === 'verify' ? (
        <VerifyStep step={step} onSession={signedIn} />
      ) : (
        <EnrolStep step={step} onSession={signedIn} />
      )}
      <button type="button" className="mt-4 text-sm text-blue-800 underline" onClick={onCancel}>
        Back to sign in
      </button>
    </div>
  )
}

type Way = 'totp' | 'passkey' | 'recovery'
const WAY_LINKS: Record<Way, string> = {
  totp: 'Use your authenticator app',
  passkey: 'Use a passkey',
  recovery: 'Use a recovery code',
}

function VerifyStep({ step, onSession }: { step: Step; onSession: (s: SessionResponse) => void }) {
  const ways = (['totp', 'passkey', 'recovery'] as const).filter((w) => step.methods.includes(w))
  const [way, setWay] = useState<Way>(ways[0] ?? 'recovery')
  const [code, setCode] = useState('')
  const { pending, error, attempt, reset } = useAttempt()
  const recovery = way === 'recovery'
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    await attempt(
      async () =>
        onSession(await (recovery ? verifyRecoveryCode(step.token, code.trim()) : verifyTotp(step.token, code.trim()))),
      (failure) => errorMessage(failure, 'The code could not be checked. Please try again.'),
    )
  }
  const checkPasskey = () =>
    attempt(
      async () => onSession(await verifyPasskeyStep(step.token)),
      (failure) => passkeyError(failure, 'The passkey could not be checked. Please try again.'),
    )
  return (
    <>
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Two-step verification</h1>
      <p className="mt-1 text-slate-600">
        {way === 'passkey'
          ? 'Use one of your passkeys to finish signing in.'
          : recovery
            ? 'Enter one of your recovery codes.'
            : 'Enter the 6-digit code from your authenticator app.'}
      </p>
      {way === 'passkey' ? (
        <div className="mt-6 space-y-5">
          {error && <Banner variant="error">{error}</Banner>}
          <Button size="lg" className="w-full" disabled={pending} onClick={() => void checkPasskey()}>
            {pending ? 'Waiting for your passkey...' : 'Use passkey'}
          </Button>
        </div>
      ) : (
        <form className="mt-6 space-y-5" onSubmit={submit}>
          {error && <Banner variant="error">{error}</Banner>}
          <Input
            key={way}
            label={recovery ? 'Recovery code' : 'Authentication code'}
            name="code"
            inputMode={recovery ? 'text' : 'numeric'}
            autoComplete="one-time-code"
            required
            value={code}
            onChange={(e) => setCode(e.target.value)}
          />
          <Button type="submit" size="lg" className="w-full" disabled={pending}>
            {pending ? 'Verifying...' : 'Verify'}
          </Button>
        </form>
      )}
      {ways
        .filter((w) => w !== way)
        .map((w) => (
          <button
            key={w}
            type="button"
            className="mt-4 block text-sm text-blue-800 underline"
            onClick={() => {
              setWay(w)
              setCode('')
              reset()
            }}
          >
            {WAY_LINKS[w]}
          </button>
        ))}
    </>
  )
}

function EnrolStep({ step, onSession }: { step: Step; onSession: (s: SessionResponse) => void }) {
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null)
  const { pending, error, setError, attempt } = useAttempt()
  const [done, setDone] = useState<{ session: SessionResponse; codes: string[] } | null>(null)
  const started = useRef(false)
  useEffect(() => {
    if (started.current) return
    started.current = true // StrictMode mounts twice; one key is enough
    startRequiredEnrolment(step.token)
      .then(setEnrolment)
      .catch((failure: unknown) => setError(errorMessage(failure, 'The set-up could not start. Please sign in again.')))
  }, [step.token, setError])

  if (done) {
    return (
      <>
        <h1 className="mb-4 text-2xl font-semibold tracking-tight text-slate-900">Authenticator app added</h1>
        <RecoveryCodesList codes={done.codes} onDone={() => onSession(done.session)} doneLabel="Continue" />
      </>
    )
  }
  const confirm = async (code: string) => {
    if (!enrolment) return
    await attempt(
      async () => {
        const result = await confirmRequiredEnrolment(step.token, enrolment.factorId, code)
        if (result.recoveryCodes?.length) setDone({ session: result.session, codes: result.recoveryCodes })
        else onSession(result.session)
      },
      (failure) => errorMessage(failure, 'The code could not be checked. Please try again.'),
    )
  }
  return (
    <>
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Set up two-step verification</h1>
      <p className="mt-1 mb-4 text-slate-600">
        Your account requires a second factor. Set up an authenticator app to continue.
      </p>
      {enrolment ? (
        <TotpSetup enrolment={enrolment} onConfirm={(code) => void confirm(code)} pending={pending} error={error} />
      ) : error ? (
        <Banner variant="error">{error}</Banner>
      ) : (
        <Spinner label="Preparing your key..." />
      )}
    </>
  )
}
