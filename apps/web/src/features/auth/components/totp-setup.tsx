import type { TotpEnrolment } from '@portal/shared'
import { useState, type FormEvent } from 'react'
import { Banner } from '@/components/ui/banner'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'

/**
 * Setting up an authenticator app: the QR code to scan, the key as text for apps that cannot
 * scan, and the first code that confirms it. Used on Profile and in a required enrolment.
 */
export function TotpSetup({
  enrolment,
  onConfirm,
  pending,
  error,
  withName = false,
  onCancel,
}: {
  enrolment: TotpEnrolment
  onConfirm: (code: string, name: string) => void
  pending: boolean
  error: string | null
  withName?: boolean
  onCancel?: () => void
}) {
  const [code, setCode] = useState('')
  const [name, setName] = useState('Authenticator app')
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    onConfirm(code.trim(), name.trim())
  }
  return (
    <form className="space-y-4" onSubmit={submit} aria-label="Set up an authenticator app">
      <ol className="list-decimal space-y-1 pl-5 text-sm text-slate-700">
        <li>Open your authenticator app (Google Authenticator, Microsoft Authenticator, 1Password, ...).</li>
        <li>Scan the QR code, or enter the key below.</li>
        <li>Type the 6-digit code the app shows.</li>
      </ol>
      <div className="flex flex-wrap items-start gap-4">
        <img
          src={enrolment.qrCode}
          alt="QR code for your authenticator app"
          width={180}
          height={180}
          className="rounded border border-slate-200"
        />
        <div className="min-w-0 text-sm">
          <p className="font-medium text-slate-900">Key</p>
          <code data-testid="totp-secret" className="block font-mono break-all text-slate-800 select-all">
            {enrolment.secret}
          </code>
        </div>
      </div>
      {error && <Banner variant="error">{error}</Banner>}
      {withName && (
        <Input label="Name" name="factor-name" value={name} onChange={(e) => setName(e.target.value)} limit={100} />
      )}
      <Input
        label="Code from the app"
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        required
        value={code}
        onChange={(e) => setCode(e.target.value)}
      />
      <div className="flex gap-2">
        <Button type="submit" disabled={pending}>
          {pending ? 'Checking...' : 'Confirm'}
        </Button>
        {onCancel && (
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
        )}
      </div>
    </form>
  )
}

/** Recovery codes, shown once: each signs in once when the phone is lost. */
export function RecoveryCodesList({
  codes,
  onDone,
  doneLabel = 'Done',
}: {
  codes: string[]
  onDone: () => void
  doneLabel?: string
}) {
  return (
    <section
      aria-labelledby="recovery-codes-title"
      className="space-y-3 rounded-lg border border-amber-300 bg-amber-50 p-4"
    >
      <h3 id="recovery-codes-title" className="font-semibold text-amber-950">
        Your recovery codes
      </h3>
      <p className="text-sm text-amber-950">
        Keep these somewhere safe. Each one signs you in once if you lose your phone. They are shown only now.
      </p>
      <ul data-testid="recovery-codes" className="grid grid-cols-2 gap-1 font-mono text-sm text-slate-900">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <Button onClick={onDone}>{doneLabel}</Button>
    </section>
  )
}
