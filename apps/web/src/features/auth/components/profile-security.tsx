import { formatDateTime, type TotpEnrolment } from '@portal/shared'
import { useState } from 'react'
import { Banner } from '@/components/ui/banner'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { errorMessage } from '@/lib/api-error'
import { confirmTotp, startTotp, useMfaStatus, useProfileSecurityMutations, useSessions } from '../api/mfa-api'
import { passkeysSupported } from '../api/passkeys-api'
import { AddPasskey, RenameFactor } from './passkey-setup'
import { RecoveryCodesList, TotpSetup } from './totp-setup'

const card = 'rounded-lg border border-slate-200 bg-white p-4 sm:p-6'

/** Profile: the caller's second factors and recovery codes. */
export function ProfileSecurity() {
  const status = useMfaStatus()
  const m = useProfileSecurityMutations()
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null)
  const [addingPasskey, setAddingPasskey] = useState(false)
  const [renaming, setRenaming] = useState<string | null>(null)
  const [codes, setCodes] = useState<string[] | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [pending, setPending] = useState(false)

  const begin = async () => {
    setError(null)
    try {
      setEnrolment(await startTotp())
    } catch (failure) {
      setError(errorMessage(failure, 'The set-up could not start.'))
    }
  }
  const confirm = async (code: string, name: string) => {
    if (!enrolment) return
    setPending(true)
    setError(null)
    try {
      const added = await confirmTotp(enrolment.factorId, code, name)
      setEnrolment(null)
      if (added.recoveryCodes) setCodes(added.recoveryCodes)
      await m.refresh()
    } catch (failure) {
      setError(errorMessage(failure, 'The code could not be checked.'))
    } finally {
      setPending(false)
    }
  }

  const data = status.data
  return (
    <section aria-labelledby="security-title" className={card}>
      <h2 id="security-title" className="text-lg font-semibold text-slate-900">
        Two-step verification
      </h2>
      {!data ? (
        <Spinner label="Loading..." />
      ) : (
        <div className="mt-3 space-y-4">
          <p className="text-sm text-slate-600">
            {data.factors.length > 0
              ? 'Signing in asks for one of these after your password; a passkey can also sign you in alone.'
              : data.required
                ? 'Your account requires a second factor.'
                : 'Add an authenticator app or a passkey so that a stolen password is not enough to sign in.'}
          </p>
          {data.factors.length > 0 && (
            <ul className="divide-y divide-slate-200 rounded border border-slate-200" aria-label="Your second factors">
              {data.factors.map((f) => (
                <li key={f.id} className="flex flex-wrap items-center justify-between gap-2 p-3 text-sm">
                  {renaming === f.id ? (
                    <RenameFactor
                      factor={f}
                      onDone={(renamed) => {
                        setRenaming(null)
                        if (renamed) void m.refresh()
                      }}
                    />
                  ) : (
                    <>
                      <span>
                        <span className="font-medium text-slate-900">{f.name}</span>{' '}
                        <span className="text-slate-600">
                          ({f.kind === 'totp' ? 'authenticator app' : 'passkey'}, added {formatDateTime(f.createdAt)})
                        </span>
                      </span>
                      <span className="flex gap-2">
                        <Button
                          variant="secondary"
                          size="sm"
                          aria-label={`Rename ${f.name}`}
                          onClick={() => setRenaming(f.id)}
                        >
                          Rename
                        </Button>
                        <Button
                          variant="secondary"
                          size="sm"
                          aria-label={`Remove ${f.name}`}
                          disabled={m.removeFactor.isPending}
                          onClick={() => m.removeFactor.mutate(f.id)}
                        >
                          Remove
                        </Button>
                      </span>
                    </>
                  )}
                </li>
              ))}
            </ul>
          )}
          {m.removeFactor.isError && (
            <Banner variant="error">{errorMessage(m.removeFactor.error, 'Not removed.')}</Banner>
          )}
          {codes ? (
            <RecoveryCodesList codes={codes} onDone={() => setCodes(null)} />
          ) : enrolment ? (
            <TotpSetup
              enrolment={enrolment}
              withName
              pending={pending}
              error={error}
              onConfirm={(code, name) => void confirm(code, name)}
              onCancel={() => setEnrolment(null)}
            />
          ) : addingPasskey ? (
            <AddPasskey
              onCancel={() => setAddingPasskey(false)}
              onAdded={(recoveryCodes) => {
                setAddingPasskey(false)
                if (recoveryCodes) setCodes(recoveryCodes)
                void m.refresh()
              }}
            />
          ) : (
            <div className="flex flex-wrap gap-2">
              <Button onClick={() => void begin()}>Set up authenticator app</Button>
              {passkeysSupported() && (
                <Button variant="secondary" onClick={() => setAddingPasskey(true)}>
                  Add a passkey
                </Button>
              )}
              {data.factors.length > 0 && (
                <Button
                  variant="secondary"
                  disabled={m.regenerate.isPending}
                  onClick={() => m.regenerate.mutate(undefined, { onSuccess: (r) => setCodes(r.recoveryCodes) })}
                >
                  New recovery codes
                </Button>
              )}
            </div>
          )}
          {error && !enrolment && <Banner variant="error">{error}</Banner>}
          {data.factors.length > 0 && !codes && (
            <p className="text-sm text-slate-600">Recovery codes left: {data.recoveryCodesLeft}</p>
          )}
        </div>
      )}
    </section>
  )
}

/** Profile: where the caller is signed in, with sign-out per session and everywhere else. */
export function ProfileSessions() {
  const sessions = useSessions()
  const m = useProfileSecurityMutations()
  const others = (sessions.data ?? []).filter((s) => !s.current).length
  return (
    <section aria-labelledby="sessions-title" className={card}>
      <h2 id="sessions-title" className="text-lg font-semibold text-slate-900">
        Where you are signed in
      </h2>
      {!sessions.data ? (
        <Spinner label="Loading..." />
      ) : (
        <>
          <ul className="mt-3 divide-y divide-slate-200 rounded border border-slate-200" aria-label="Your sessions">
            {sessions.data.map((s) => (
              <li key={s.id} className="flex flex-wrap items-center justify-between gap-2 p-3 text-sm">
                <span>
                  <span className="font-medium text-slate-900">
                    {s.browser} on {s.system}
                  </span>
                  {s.current && (
                    <span className="ml-2 rounded bg-green-100 px-2 py-0.5 text-green-900">This browser</span>
                  )}
                  <span className="block text-slate-600">
                    IP {s.ipAddress ?? 'unknown'} · started {formatDateTime(s.startedAt)} · last used{' '}
                    {formatDateTime(s.lastUsedAt)}
                  </span>
                </span>
                {!s.current && (
                  <Button
                    variant="secondary"
                    size="sm"
                    aria-label={`Sign out ${s.browser} on ${s.system}`}
                    disabled={m.endSession.isPending}
                    onClick={() => m.endSession.mutate(s.id)}
                  >
                    Sign out
                  </Button>
                )}
              </li>
            ))}
          </ul>
          {others > 0 && (
            <Button
              className="mt-3"
              variant="secondary"
              disabled={m.endOthers.isPending}
              onClick={() => m.endOthers.mutate()}
            >
              Sign out everywhere else
            </Button>
          )}
        </>
      )}
    </section>
  )
}
