import { WEBHOOK_DESCRIPTION_MAX, type WebhookSecret, type WebhookSubscription } from '@portal/shared'
import { useState } from 'react'
import { Banner } from '@/components/ui/banner'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { Modal } from '@/components/ui/modal'
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
  const toggle = (name: string) =>
    setEvents((now) => (now.includes(name) ? now.filter((e) => e !== name) : [...now, name]))
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
        <fieldset>
          <legend className="text-sm font-medium text-slate-800">Events</legend>
          <div className="mt-2 grid gap-1 sm:grid-cols-2">
            {eventTypes.map((name) => (
              <label key={name} className="flex items-center gap-2 text-sm text-slate-800">
                <input type="checkbox" checked={events.includes(name)} onChange={() => toggle(name)} />
                <code className="text-xs">{name}</code>
              </label>
            ))}
          </div>
        </fieldset>
      </div>
    </Modal>
  )
}

/** The signing secret: after creating (shown once here) or revealed again on request. */
export function WebhookSecretDialog({ shown, onClose }: { shown: WebhookSecret; onClose: () => void }) {
  const [copied, setCopied] = useState(false)
  const copy = async () => {
    await navigator.clipboard?.writeText(shown.secret)
    setCopied(true)
  }
  return (
    <Modal title="Signing secret" onClose={onClose} footer={<Button onClick={onClose}>Done</Button>}>
      <div className="space-y-3">
        <p className="text-sm text-slate-700">
          For <span className="font-medium break-all">{shown.subscription.url}</span>. Verify every delivery's{' '}
          <code>webhook-signature</code> with it (docs/api.md shows how).
        </p>
        <code aria-label="Signing secret" className="block rounded bg-slate-100 p-3 text-xs break-all text-slate-900">
          {shown.secret}
        </code>
        <Button variant="secondary" size="sm" onClick={() => void copy()}>
          {copied ? 'Copied' : 'Copy secret'}
        </Button>
      </div>
    </Modal>
  )
}
