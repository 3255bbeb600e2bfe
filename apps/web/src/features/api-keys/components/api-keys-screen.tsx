import { apiKeyScopeLabel, type ApiKey, type ApiKeySecret } from '@portal/shared'
import { format } from 'date-fns'
import { KeyRound } from 'lucide-react'
import { useState } from 'react'
import { Badge } from '@/components/ui/badge'
import { Banner } from '@/components/ui/banner'
import { Button } from '@/components/ui/button'
import { Card, CardList } from '@/components/ui/card-list'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { EmptyState } from '@/components/ui/empty-state'
import { QueryFallback } from '@/components/ui/query-state'
import { errorMessage } from '@/lib/api-error'
import { useApiKeys, useRevokeApiKey, useRotateApiKey } from '../api/api-keys-api'
import { ApiKeySecretDialog, CreateApiKeyDialog } from './api-key-dialogs'

const when = (iso: string | null) => (iso ? format(new Date(iso), 'yyyy-MM-dd HH:mm') : 'Never')

function stateOf(key: ApiKey): { label: string; tone: 'green' | 'red' | 'yellow' } {
  if (key.revokedAt) return { label: 'Revoked', tone: 'red' }
  if (key.expiresAt && new Date(key.expiresAt).getTime() <= Date.now()) return { label: 'Expired', tone: 'yellow' }
  return { label: 'Active', tone: 'green' }
}

/**
 * /integrations/api-keys. An admin sees the vendor's keys and every company's; a client user its company's,
 * and may make keys when an admin allows it for the company. Secrets are shown once.
 */
export function ApiKeysScreen() {
  const query = useApiKeys()
  const { data } = query
  const [creating, setCreating] = useState(false)
  const [secret, setSecret] = useState<ApiKeySecret | null>(null)
  const [confirm, setConfirm] = useState<{ key: ApiKey; action: 'rotate' | 'revoke' } | null>(null)
  const rotate = useRotateApiKey()
  const revoke = useRevokeApiKey()
  const busy = rotate.isPending || revoke.isPending
  const failed = rotate.error ?? revoke.error

  if (query.error || !data)
    return <QueryFallback query={query} loading="Loading API keys..." failed="Failed to load the API keys" />

  const act = () => {
    if (!confirm) return
    const done = { onSettled: () => setConfirm(null) }
    if (confirm.action === 'rotate') rotate.mutate(confirm.key.id, { ...done, onSuccess: setSecret })
    else revoke.mutate(confirm.key.id, done)
  }

  return (
    <div className="space-y-4">
      {!data.allowed && (
        <Banner variant="info">API keys are not enabled for your company. Ask an administrator to allow them.</Banner>
      )}
      {failed && <Banner variant="error">{errorMessage(failed, 'The key could not be changed.')}</Banner>}
      {data.allowed && (
        <Button onClick={() => setCreating(true)}>
          <KeyRound aria-hidden="true" className="size-4" />
          Create API key
        </Button>
      )}
      <CardList
        label="API keys"
        items={data.keys}
        empty={
          <EmptyState
            icon={KeyRound}
            title="No API keys"
            description="A key lets another system call this portal's API with the scopes you choose."
          />
        }
      >
        {(key) => {
          const state = stateOf(key)
          return (
            <Card key={key.id}>
              <div className="flex flex-wrap items-center gap-2">
                <Badge tone={state.tone}>{state.label}</Badge>
                <span className="text-sm font-medium text-slate-900">{key.name}</span>
                <code className="text-xs text-slate-600">{key.prefix}…</code>
                <span className="text-xs text-slate-600">{key.companyName ?? 'Vendor'}</span>
              </div>
              <p className="mt-1 text-sm text-slate-700">{key.scopes.map(apiKeyScopeLabel).join(', ')}</p>
              <dl className="mt-2 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
                <div className="flex gap-2">
                  <dt className="text-slate-600">Last used:</dt>
                  <dd className="text-slate-900">
                    {when(key.lastUsedAt)}
                    {key.lastUsedIp ? ` from ${key.lastUsedIp}` : ''}
                  </dd>
                </div>
                <div className="flex gap-2">
                  <dt className="text-slate-600">Expires:</dt>
                  <dd className="text-slate-900">{key.expiresAt ? when(key.expiresAt) : 'Never'}</dd>
                </div>
                <div className="flex gap-2">
                  <dt className="text-slate-600">Created:</dt>
                  <dd className="text-slate-900">
                    {when(key.createdAt)}
                    {key.createdBy ? ` by ${key.createdBy}` : ''}
                  </dd>
                </div>
              </dl>
              {!key.revokedAt && (
                <div className="mt-3 flex gap-2">
                  <Button variant="secondary" size="sm" onClick={() => setConfirm({ key, action: 'rotate' })}>
                    Rotate
                  </Button>
                  <Button variant="danger" size="sm" onClick={() => setConfirm({ key, action: 'revoke' })}>
                    Revoke
                  </Button>
                </div>
              )}
            </Card>
          )
        }}
      </CardList>
      {creating && (
        <CreateApiKeyDialog
          grantable={data.grantable}
          onClose={() => setCreating(false)}
          onCreated={(created) => {
            setCreating(false)
            setSecret(created)
          }}
        />
      )}
      {secret && <ApiKeySecretDialog created={secret} onClose={() => setSecret(null)} />}
      {confirm && (
        <ConfirmDialog
          title={confirm.action === 'rotate' ? `Rotate "${confirm.key.name}"?` : `Revoke "${confirm.key.name}"?`}
          confirmLabel={confirm.action === 'rotate' ? 'Rotate' : 'Revoke'}
          tone={confirm.action === 'rotate' ? 'primary' : 'danger'}
          busy={busy}
          onConfirm={act}
          onCancel={() => setConfirm(null)}
        >
          {confirm.action === 'rotate'
            ? 'A new secret is made and the current one stops working at once.'
            : 'The key stops working at once. This cannot be undone.'}
        </ConfirmDialog>
      )}
    </div>
  )
}
