import { API_KEY_NAME_MAX, apiKeyScopeLabel, type ApiKeySecret } from '@portal/shared'
import { useState } from 'react'
import { Banner } from '@/components/ui/banner'
import { Button } from '@/components/ui/button'
import { CheckboxGroup } from '@/components/ui/checkbox-group'
import { Input } from '@/components/ui/input'
import { Modal } from '@/components/ui/modal'
import { SecretDialog } from '@/components/ui/secret-dialog'
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
        <CheckboxGroup
          legend="Scopes"
          options={grantable}
          checked={scopes}
          onChange={setScopes}
          label={(scope) => (
            <>
              {apiKeyScopeLabel(scope)} <code className="text-xs text-slate-500">{scope}</code>
            </>
          )}
        />
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
  return (
    <SecretDialog
      title={`Key "${created.key.name}"`}
      secret={created.secret}
      secretName="API key"
      copyLabel="Copy key"
      intro={<Banner variant="info">Copy the key now: it is shown only this once and cannot be read again.</Banner>}
      onClose={onClose}
    >
      <p className="text-sm text-slate-600">
        Send it as <code>Authorization: Bearer &lt;key&gt;</code>.
      </p>
    </SecretDialog>
  )
}
