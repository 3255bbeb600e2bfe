import type { WebhookSecret, WebhookSubscription } from '@portal/shared'
import { format } from 'date-fns'
import { Webhook } from 'lucide-react'
import { useState } from 'react'
import { Badge } from '@/components/ui/badge'
import { Banner } from '@/components/ui/banner'
import { Button } from '@/components/ui/button'
import { Card, CardList } from '@/components/ui/card-list'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { EmptyState } from '@/components/ui/empty-state'
import { QueryFallback } from '@/components/ui/query-state'
import { errorMessage } from '@/lib/api-error'
import { useDeleteWebhook, useRevealSecret, useUpdateWebhook, useWebhooks } from '../api/webhooks-api'
import { DeliveryLog } from './delivery-log'
import { DemoCatcher } from './demo-catcher'
import { WebhookFormDialog, WebhookSecretDialog } from './webhook-dialogs'

const when = (iso: string) => format(new Date(iso), 'yyyy-MM-dd HH:mm')

/**
 * /integrations/webhooks. An admin sees the vendor's subscriptions and every company's; a client
 * user its company's, and may add them when an admin allows integrations for the company.
 */
export function WebhooksScreen() {
  const query = useWebhooks()
  const { data } = query
  const [form, setForm] = useState<{ existing?: WebhookSubscription } | null>(null)
  const [secret, setSecret] = useState<WebhookSecret | null>(null)
  const [removing, setRemoving] = useState<WebhookSubscription | null>(null)
  const [open, setOpen] = useState<string | null>(null)
  const update = useUpdateWebhook()
  const remove = useDeleteWebhook()
  const reveal = useRevealSecret()
  const failed = update.error ?? remove.error ?? reveal.error

  if (query.error || !data)
    return <QueryFallback query={query} loading="Loading webhooks..." failed="Failed to load the webhooks" />

  return (
    <div className="space-y-4">
      {!data.allowed && (
        <Banner variant="info">
          Integrations are not enabled for your company. Ask an administrator to allow them.
        </Banner>
      )}
      {failed && <Banner variant="error">{errorMessage(failed, 'The webhook could not be changed.')}</Banner>}
      {data.allowed && (
        <div className="flex flex-wrap items-center gap-3">
          <Button onClick={() => setForm({})} disabled={data.subscriptions.length >= data.maxSubscriptions}>
            <Webhook aria-hidden="true" className="size-4" />
            Add webhook
          </Button>
          <span className="text-sm text-slate-600">
            {data.subscriptions.length} of {data.maxSubscriptions} used
          </span>
        </div>
      )}
      <CardList
        label="Webhooks"
        items={data.subscriptions}
        empty={
          <EmptyState
            icon={Webhook}
            title="No webhooks"
            description="A webhook sends a signed HTTPS request to your system when something happens, such as a learner completing a course."
          />
        }
      >
        {(s) => {
          const paused = s.status === 'paused'
          return (
            <Card key={s.id}>
              <div className="flex flex-wrap items-center gap-2">
                <Badge tone={paused ? 'yellow' : 'green'}>{paused ? 'Paused' : 'Active'}</Badge>
                <span className="text-sm font-medium break-all text-slate-900">{s.url}</span>
                <span className="text-xs text-slate-600">{s.companyName ?? 'Vendor'}</span>
              </div>
              {s.description && <p className="mt-1 text-sm text-slate-700">{s.description}</p>}
              {paused && s.pausedReason && <p className="mt-1 text-sm text-yellow-800">{s.pausedReason}</p>}
              <p className="mt-1 text-xs text-slate-700">{s.events.join(', ')}</p>
              <p className="mt-1 text-xs text-slate-600">
                Created {when(s.createdAt)}
                {s.createdBy ? ` by ${s.createdBy}` : ''}
              </p>
              <div className="mt-3 flex flex-wrap gap-2">
                <Button
                  variant="secondary"
                  size="sm"
                  aria-expanded={open === s.id}
                  onClick={() => setOpen(open === s.id ? null : s.id)}
                >
                  {open === s.id ? 'Hide deliveries' : 'Deliveries'}
                </Button>
                <Button variant="secondary" size="sm" onClick={() => setForm({ existing: s })}>
                  Edit
                </Button>
                <Button
                  variant="secondary"
                  size="sm"
                  disabled={update.isPending}
                  onClick={() => update.mutate({ id: s.id, body: { status: paused ? 'active' : 'paused' } })}
                >
                  {paused ? 'Resume' : 'Pause'}
                </Button>
                <Button
                  variant="secondary"
                  size="sm"
                  disabled={reveal.isPending}
                  onClick={() => reveal.mutate(s.id, { onSuccess: setSecret })}
                >
                  Reveal secret
                </Button>
                <Button variant="danger" size="sm" onClick={() => setRemoving(s)}>
                  Delete
                </Button>
              </div>
              {open === s.id && <DeliveryLog subscriptionId={s.id} label={s.url} />}
            </Card>
          )
        }}
      </CardList>
      <DemoCatcher />
      {form && (
        <WebhookFormDialog
          eventTypes={data.eventTypes}
          existing={form.existing}
          onClose={() => setForm(null)}
          onCreated={(created) => {
            setForm(null)
            setSecret(created)
            setOpen(created.subscription.id)
          }}
        />
      )}
      {secret && <WebhookSecretDialog shown={secret} onClose={() => setSecret(null)} />}
      {removing && (
        <ConfirmDialog
          title="Delete this webhook?"
          confirmLabel="Delete"
          tone="danger"
          busy={remove.isPending}
          onConfirm={() => remove.mutate(removing.id, { onSettled: () => setRemoving(null) })}
          onCancel={() => setRemoving(null)}
        >
          Nothing more is sent to {removing.url}, and its delivery log is deleted.
        </ConfirmDialog>
      )}
    </div>
  )
}
