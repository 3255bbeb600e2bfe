import { formatDate, type Renewal } from '@portal/shared'
import { useState } from 'react'
import { Badge } from '@/components/ui/badge'
import { Banner } from '@/components/ui/banner'
import { Button } from '@/components/ui/button'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { EmptyState } from '@/components/ui/empty-state'
import { DataTable } from '@/components/ui/responsive-table'
import { Spinner } from '@/components/ui/spinner'
import { errorMessage } from '@/lib/api-error'
import { useCancelRenewal, useCompanyRenewals } from '../api/renewals'
import { ScheduleRenewalDialog } from './schedule-renewal-dialog'

const td = 'px-4 py-3'
const TONES = { scheduled: 'blue', running: 'yellow', done: 'green', failed: 'red', cancelled: 'neutral' } as const

export function describeRenewal(r: Renewal): string {
  const parts: string[] = []
  if (r.registrationCap !== null) parts.push(r.registrationCap === 0 ? 'Cap: unlimited' : `Cap: ${r.registrationCap}`)
  if (r.expirationDate) parts.push(`Expiry: ${r.expirationDate}`)
  if (r.resetCount) parts.push('Counter reset')
  if (r.rolloverMonths !== null) parts.push(`Rollover every ${r.rolloverMonths} months`)
  return parts.join(', ')
}

/** A company's scheduled renewals (upcoming first, then the last month's), cancellable while scheduled. */
export function CompanyRenewals({ companyId }: { companyId: string }) {
  const { data, error, isPending } = useCompanyRenewals(companyId)
  const cancel = useCancelRenewal()
  const [scheduling, setScheduling] = useState(false)
  const [cancelling, setCancelling] = useState<Renewal | null>(null)
  const [notice, setNotice] = useState<string | null>(null)

  return (
    <section aria-labelledby="renewals-title" className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="renewals-title" className="text-base font-semibold text-slate-900">
          Upcoming renewals
        </h2>
        <Button onClick={() => setScheduling(true)}>Schedule renewal</Button>
      </div>
      {notice && <Banner variant="success">{notice}</Banner>}
      {cancel.error && <Banner variant="error">{errorMessage(cancel.error, 'Could not cancel the renewal')}</Banner>}
      {error && <Banner variant="error">{errorMessage(error, 'Failed to load renewals')}</Banner>}
      {isPending ? (
        <Spinner label="Loading renewals..." />
      ) : data && data.renewals.length === 0 ? (
        <EmptyState
          title="No renewals scheduled"
          description="Schedule one to renew this company's licences on a day."
        />
      ) : (
        data && (
          <DataTable caption="Renewals" headers={['Course', 'Renewal date', 'Changes', 'Status', 'Actions']}>
            {data.renewals.map((r) => (
              <tr key={r.id}>
                <td className={`${td} font-medium text-slate-900`}>
                  {r.courseTitle || r.dispatchId}
                  {r.source === 'rollover' && <span className="ml-2 text-xs text-slate-500">(rollover)</span>}
                </td>
                <td className={`${td} tabular-nums`}>{r.runOn}</td>
                <td className={td}>{describeRenewal(r)}</td>
                <td className={td}>
                  <Badge tone={TONES[r.status as keyof typeof TONES] ?? 'neutral'}>{r.status}</Badge>
                  {r.status === 'failed' && r.lastError && <p className="mt-1 text-xs text-red-800">{r.lastError}</p>}
                  {r.status === 'scheduled' && r.lastError && (
                    <p className="mt-1 text-xs text-slate-600">Retrying: {r.lastError}</p>
                  )}
                  {r.finishedAt && <p className="mt-1 text-xs text-slate-500">{formatDate(r.finishedAt)}</p>}
                </td>
                <td className={td}>
                  {r.status === 'scheduled' && (
                    <Button variant="secondary" size="sm" onClick={() => setCancelling(r)}>
                      Cancel <span className="sr-only">renewal of {r.courseTitle || r.dispatchId}</span>
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </DataTable>
        )
      )}
      {scheduling && (
        <ScheduleRenewalDialog
          companyId={companyId}
          onClose={() => setScheduling(false)}
          onScheduled={(count) => setNotice(`Renewal scheduled for ${count} dispatch${count === 1 ? '' : 'es'}.`)}
        />
      )}
      {cancelling && (
        <ConfirmDialog
          title="Cancel this renewal?"
          confirmLabel="Cancel renewal"
          tone="danger"
          busy={cancel.isPending}
          onCancel={() => setCancelling(null)}
          onConfirm={() =>
            cancel.mutate(cancelling.id, {
              onSuccess: () => setNotice('Renewal cancelled.'),
              onSettled: () => setCancelling(null),
            })
          }
        >
          The renewal of {cancelling.courseTitle || cancelling.dispatchId} on {cancelling.runOn} will not run.
        </ConfirmDialog>
      )}
    </section>
  )
}
