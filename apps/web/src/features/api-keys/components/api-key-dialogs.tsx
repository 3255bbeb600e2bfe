import { API_KEY_NAME_MAX, apiKeyScopeLabel, type ApiKeySecret } from '@portal/shared'
import { useState } from 'react'
import { Banner } from '@/components/ui/banner'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { Modal } from '@/components/ui/modal'
import { errorMessage } from '@/lib/api-error'
import { useCreateApiKey } from '../api/api-keys-api'

/** The new key's name, scopes (those the caller may grant) and optional expiry date. */
export function CreateApiKeyDialog({
  grantable,
  onCreated,
  onClose,
}: {
  grantable: string[]
  onCreated: (created: ApiKeySecret) => void
  onClose: () => void
}) {
  const [name, setName] = useState('')
  const [scopes, setScopes] = useState<string[]>([])
  const [expires, setExpires] = useState('')
  const create = useCreateApiKey()
  const toggle = (scope: string) =>
    setScopes((now) => (now.includes(scope) ? now.filter((s) => s !== scope) : [...now, scope]))
  const submit = () =>
    create.mutate(
      { name: name.trim(), scopes, expiresAt: expires ? new Date(`${expires}T23:59:59`).toISOString() : null },
      { onSuccess: onCreated },
    )
  return (
    <Modal
      title="Create API key"
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={submit} disabled={create.isPending || !name.trim() || scopes.length === 0}>
            {create.isPending ? 'Creating...' : 'Create key'}
          </Button>
        </>
      }
    >
      <div className="space-y-4">
        {create.error && <Banner variant="error">{errorMessage(create.error, 'The key could not be created.')}</Banner>}
        <Input label="Name" value={name} limit={API_KEY_NAME_MAX} onChange={(e) => setName(e.target.value)} />
        <fieldset>
          <legend className="text-sm font-medium text-slate-800">Scopes</legend>
          <div className="mt-2 grid gap-1 sm:grid-cols-2">
            {grantable.map((scope) => (
              <label key={scope} className="flex items-center gap-2 text-sm text-slate-800">
                <input type="checkbox" checked={scopes.includes(scope)} onChange={() => toggle(scope)} />
                {apiKeyScopeLabel(scope)} <code className="text-xs text-slate-500">{scope}</code>
              </label>
            ))}
          </div>
        </fieldset>
        <Input
          label="Expires on (optional)"
          type="date"
          value={expires}
          min={new Date().toISOString().slice(0, 10)}
          onChange={(e) => setExpires(e.target.value)}
        />
      </div>
    </Modal>
  )
}

/** The secret, shown this once, with a copy button. */
export function ApiKeySecretDialog({ created, onClose }: { created: ApiKeySecret; onClose: () => void }) {
  const [copied, setCopied] = useState(false)
  const copy = async () => {
    await navigator.clipboard?.writeText(created.secret)
    setCopied(true)
  }
  return (
    <Modal title={`Key "${created.key.name}"`} onClose={onClose} footer={<Button onClick={onClose}>Done</Button>}>
      <div className="space-y-3">
        <Banner variant="info">Copy the key now: it is shown only this once and cannot be read again.</Banner>
        <code aria-label="API key" className="block rounded bg-slate-100 p-3 text-xs break-all text-slate-900">
          {created.secret}
        </code>
        <Button variant="secondary" size="sm" onClick={() => void copy()}>
          {copied ? 'Copied' : 'Copy key'}
        </Button>
        <p className="text-sm text-slate-600">
          Send it as <code>Authorization: Bearer &lt;key&gt;</code>.
        </p>
      </div>
    </Modal>
  )
}
