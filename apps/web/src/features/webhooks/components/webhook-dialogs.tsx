import { WEBHOOK_DESCRIPTION_MAX, type WebhookSecret, type WebhookSubscription } from '@portal/shared'
import { useState } from 'react'
import { Banner } from '@/components/ui/banner'
import { Button } from '@/components/ui/button'
import { CheckboxGroup } from '@/components/ui/checkbox-group'
import { Input } from '@/components/ui/input'
import { Modal } from '@/components/ui/modal'
import { SecretDialog } from '@/components/ui/secret-dialog'
import { errorMessage } from '@/lib/api-error'
import { useCreateWebhook, useUpdateWebhook } from '../api/webhooks-api'

/** A new subscription (no `existing`) or an edit of one: its URL, description and events. */
export function WebhookFormDialog({
  eventTypes,
  existing,
  onCreated,
  onClose,
}: {
  eventTypes: string[]
  existing?: WebhookSubscription
  onCreated?: (created: WebhookSecret) => void
  onClose: () => void
}) {
  const [url, setUrl] = useState(existing?.url ?? '')
  const [description, setDescription] = useState(existing?.description ?? '')
  const [events, setEvents] = useState<string[]>(existing?.events ?? [])
  const create = useCreateWebhook()
  const update = useUpdateWebhook()
  const pending = create.isPending || update.isPending
  const failed = create.error ?? update.error
  const submit = () => {
    const body = { url: url.trim(), description: description.trim(), events }
    if (existing) update.mutate({ id: existing.id, body }, { onSuccess: onClose })
    else create.mutate(body, { onSuccess: (created) => onCreated?.(created) })
  }
  const title = existing ? 'Edit webhook' : 'Add webhook'
  return (
    <Modal
      title={title}
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={submit} disabled={pending || !url.trim() || events.length === 0}>
            {pending ? 'Saving...' : existing ? 'Save' : 'Add webhook'}
          </Button>
        </>
      }
    >
      <div className="space-y-4">
        {failed && <Banner variant="error">{errorMessage(failed, 'The webhook could not be saved.')}</Banner>}
        <Input
          label="Endpoint URL"
          type="url"
          placeholder="https://example.com/webhooks/portal"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
        />
        <Input
          label="Description (optional)"
          value={description}
          limit={WEBHOOK_DESCRIPTION_MAX}
          onChange={(e) => setDescription(e.target.value)}
        />
        <CheckboxGroup
          legend="Events"
          options={eventTypes}
          checked={events}
          onChange={setEvents}
          label={(name) => <code className="text-xs">{name}</code>}
        />
      </div>
    </Modal>
  )
}

/** The signing secret: after creating (shown once here) or revealed again on request. */
export function WebhookSecretDialog({ shown, onClose }: { shown: WebhookSecret; onClose: () => void }) {
  return (
    <SecretDialog
      title="Signing secret"
      secret={shown.secret}
      secretName="Signing secret"
      copyLabel="Copy secret"
      intro={
        <p className="text-sm text-slate-700">
          For <span className="font-medium break-all">{shown.subscription.url}</span>. Verify every delivery's{' '}
          <code>webhook-signature</code> with it (docs/api.md shows how).
        </p>
      }
      onClose={onClose}
    />
  )
}
