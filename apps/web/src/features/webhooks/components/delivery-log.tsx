import type { WebhookDelivery } from '@portal/shared'
import { format } from 'date-fns'
import { Badge, type BadgeTone } from '@/components/ui/badge'
import { Banner } from '@/components/ui/banner'
import { Button } from '@/components/ui/button'
import { HeaderCells, ScrollTable } from '@/components/ui/header-cells'
import { Spinner } from '@/components/ui/spinner'
import { errorMessage } from '@/lib/api-error'
import { useDeliveries, useResend, useSendTest } from '../api/webhooks-api'

const when = (iso: string | null) => (iso ? format(new Date(iso), 'yyyy-MM-dd HH:mm:ss') : '—')
const TONES: Record<WebhookDelivery['status'], BadgeTone> = {
  pending: 'yellow',
  sending: 'blue',
  succeeded: 'green',
  failed: 'red',
}
const LABELS: Record<WebhookDelivery['status'], string> = {
  pending: 'Pending',
  sending: 'Sending',
  succeeded: 'Delivered',
  failed: 'Failed',
}

/** One subscription's newest deliveries: time, event, answer, duration and a "Send again". */
export function DeliveryLog({ subscriptionId, label }: { subscriptionId: string; label: string }) {
  const { data, error, isPending } = useDeliveries(subscriptionId)
  const test = useSendTest(subscriptionId)
  const resend = useResend(subscriptionId)
  const failed = test.error ?? resend.error
  return (
    <section aria-label={`Deliveries of ${label}`} className="mt-3 space-y-2">
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="text-sm font-semibold text-slate-900">Delivery log</h3>
        <Button variant="secondary" size="sm" disabled={test.isPending} onClick={() => test.mutate()}>
          {test.isPending ? 'Sending...' : 'Send a test event'}
        </Button>
      </div>
      {failed && <Banner variant="error">{errorMessage(failed, 'The delivery could not be queued.')}</Banner>}
      {isPending ? (
        <Spinner label="Loading deliveries..." />
      ) : error || !data ? (
        <Banner variant="error">{errorMessage(error, 'Failed to load the deliveries')}</Banner>
      ) : data.deliveries.length === 0 ? (
        <p className="text-sm text-slate-600">No deliveries yet.</p>
      ) : (
        <ScrollTable caption={`Deliveries of ${label}`} className="w-full text-left text-sm">
          <thead className="text-xs text-slate-600">
            <tr>
              <HeaderCells
                labels={['Time', 'Event', 'Status', 'Answer', 'Duration']}
                className="py-1 pr-3 font-medium"
              />
              <th scope="col" className="py-1 font-medium">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.deliveries.map((d) => (
              <tr key={d.id} className="border-t border-slate-200 align-top">
                <td className="py-1 pr-3 whitespace-nowrap text-slate-800">{when(d.lastAttemptAt ?? d.createdAt)}</td>
                <td className="py-1 pr-3">
                  <code className="text-xs">{d.eventType}</code>
                </td>
                <td className="py-1 pr-3">
                  <Badge tone={TONES[d.status]}>{LABELS[d.status]}</Badge>
                  <span className="ml-1 text-xs text-slate-600">
                    {d.attempts} {d.attempts === 1 ? 'attempt' : 'attempts'}
                  </span>
                </td>
                <td className="max-w-xs py-1 pr-3 text-slate-800">
                  {d.statusCode !== null && <span className="font-mono">{d.statusCode}</span>}
                  {d.error && <span className="block text-xs text-red-700">{d.error}</span>}
                  {d.responseExcerpt && (
                    <details className="text-xs">
                      <summary className="cursor-pointer text-slate-600">Answer body</summary>
                      <pre className="max-h-40 overflow-auto break-all whitespace-pre-wrap">{d.responseExcerpt}</pre>
                    </details>
                  )}
                </td>
                <td className="py-1 pr-3 whitespace-nowrap text-slate-800">
                  {d.durationMs === null ? '—' : `${d.durationMs} ms`}
                </td>
                <td className="py-1">
                  <Button
                    variant="secondary"
                    size="sm"
                    disabled={resend.isPending}
                    aria-label={`Send again: ${d.eventType} of ${when(d.createdAt)}`}
                    onClick={() => resend.mutate(d.id)}
                  >
                    Send again
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      )}
    </section>
  )
}
