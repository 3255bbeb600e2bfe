import { FACTOR_NAME_MAX, type MfaFactor } from '@portal/shared'
import { useState, type FormEvent } from 'react'
import { Banner } from '@/components/ui/banner'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { errorMessage } from '@/lib/api-error'
import { passkeyError, registerPasskey, renameFactor } from '../api/passkeys-api'
import { useAttempt } from '../hooks/use-attempt'

/** A factor's name as the user types it, within the length the server keeps. */
function FactorName(props: { label: string; name: string; value: string; onChange: (value: string) => void }) {
  return (
    <Input
      label={props.label}
      name={props.name}
      required
      limit={FACTOR_NAME_MAX}
      value={props.value}
      onChange={(e) => props.onChange(e.target.value)}
    />
  )
}

/**
 * Adding a passkey on Profile: a name of the user's choosing ("Work laptop"), then the
 * browser's own prompt. The first factor of an account brings recovery codes.
 */
export function AddPasskey({
  onAdded,
  onCancel,
}: {
  onAdded: (recoveryCodes: string[] | null) => void
  onCancel: () => void
}) {
  const [name, setName] = useState('Passkey')
  const { pending, error, attempt } = useAttempt()
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    await attempt(
      async () => onAdded((await registerPasskey(name.trim() || 'Passkey')).recoveryCodes),
      (failure) => passkeyError(failure, 'The passkey could not be added. Please try again.'),
    )
  }
  return (
    <form className="space-y-4" onSubmit={(e) => void submit(e)} aria-label="Add a passkey">
      <p className="text-sm text-slate-700">
        Your browser or phone keeps the passkey and asks for your PIN, fingerprint or face each time you use it.
      </p>
      {error && <Banner variant="error">{error}</Banner>}
      <FactorName label="Passkey name" name="passkey-name" value={name} onChange={setName} />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={pending}>
          {pending ? 'Waiting for your passkey...' : 'Create passkey'}
        </Button>
        <Button type="button" variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  )
}

/** A factor's name, changed in place (an authenticator app or a passkey). */
export function RenameFactor({ factor, onDone }: { factor: MfaFactor; onDone: (renamed: boolean) => void }) {
  const [name, setName] = useState(factor.name)
  const { pending, error, attempt } = useAttempt()
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    await attempt(
      async () => {
        await renameFactor(factor.id, name.trim())
        onDone(true)
      },
      (failure) => errorMessage(failure, 'Not renamed.'),
    )
  }
  return (
    <form
      className="flex flex-wrap items-end gap-2"
      onSubmit={(e) => void submit(e)}
      aria-label={`Rename ${factor.name}`}
    >
      <FactorName label="New name" name="factor-name" value={name} onChange={setName} />
      <Button type="submit" size="sm" disabled={pending}>
        Save
      </Button>
      <Button type="button" size="sm" variant="secondary" onClick={() => onDone(false)}>
        Cancel
      </Button>
      {error && <span className="text-sm text-red-700">{error}</span>}
    </form>
  )
}
