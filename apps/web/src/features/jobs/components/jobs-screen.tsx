import { JOB_STATES, type JobFailure, type JobState } from '@portal/shared'
import { format } from 'date-fns'
import { CheckCircle2 } from 'lucide-react'
import { useState } from 'react'
import { Badge } from '@/components/ui/badge'
import { HeaderCells, ScrollTable } from '@/components/ui/header-cells'
import { Banner } from '@/components/ui/banner'
import { Button } from '@/components/ui/button'
import { Card, CardList } from '@/components/ui/card-list'
import { EmptyState } from '@/components/ui/empty-state'
import { QueryFallback } from '@/components/ui/query-state'
import { errorMessage } from '@/lib/api-error'
import { useJobAction, useJobsOverview } from '../api/jobs-api'

const STATE_LABELS: Record<JobState, string> = {
  created: 'Waiting',
  retry: 'Retrying',
  active: 'Running',
  completed: 'Completed',
  cancelled: 'Cancelled',
  failed: 'Failed',
}
const when = (iso: string | null) => (iso ? format(new Date(iso), 'yyyy-MM-dd HH:mm:ss') : '-')

/** What each queue does, in the words of the screen. */
export const QUEUE_LABELS: Record<string, string> = {
  sync: 'SCORM Cloud sync',
  'alerts-evaluate': 'Alert evaluation (everything)',
  'alerts-postback': 'Alert evaluation (postbacks)',
  'mail-outbox': 'Mail sending',
  'mail-scheduled': 'Digests and report mails',
  'statement-mails': 'Monthly usage statements',
  'log-partitions': 'Activity log upkeep',
  'planner-statistics': 'Database statistics upkeep',
  'dispatch-renewals': 'Scheduled renewals and rollovers',
  'dispatch-bulk': 'Bulk actions on dispatches',
}

function FailureItem({ failure }: { failure: JobFailure }) {
  const action = useJobAction()
  const [message, setMessage] = useState<string | null>(null)
  const run = (kind: 'retry' | 'cancel') => {
    setMessage(null)
    action.mutate(
      { id: failure.id, action: kind },
      {
        onSuccess: (res) => setMessage(res.message),
        onError: (error) => setMessage(errorMessage(error, 'The action failed')),
      },
    )
  }
  return (
    <Card>
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone="red">{failure.rejected ? 'Refused' : 'Failed'}</Badge>
        <span className="text-sm font-medium text-slate-900">{QUEUE_LABELS[failure.queue] ?? failure.queue}</span>
        <span className="text-xs text-slate-600">
          {failure.attempts} {failure.attempts === 1 ? 'attempt' : 'attempts'}, last {when(failure.failedAt)}
        </span>
      </div>
      <p className="mt-2 text-sm text-red-800">Error: {failure.error}</p>
      <details className="mt-2">
        <summary className="cursor-pointer text-sm font-medium text-blue-700">Show payload</summary>
        <pre className="mt-2 overflow-x-auto rounded bg-slate-50 p-3 text-xs whitespace-pre-wrap text-slate-800">
          {JSON.stringify(failure.data, null, 2)}
        </pre>
      </details>
      <div className="mt-3 flex gap-2">
        <Button size="sm" onClick={() => run('retry')} disabled={action.isPending}>
          {action.isPending && action.variables?.action === 'retry' ? 'Retrying...' : 'Retry'}
        </Button>
        <Button size="sm" variant="secondary" onClick={() => run('cancel')} disabled={action.isPending}>
          Cancel job
        </Button>
      </div>
      {message && (
        <p role="status" className="mt-2 text-sm text-slate-700">
          {message}
        </p>
      )}
    </Card>
  )
}

/**
 * /admin/jobs: every queue of the background work with its jobs by state, and the last
 * failures with their recorded error, each with Retry and Cancel.
 */
export function JobsScreen() {
  const query = useJobsOverview()
  const { data } = query
  if (query.error || !data)
    return <QueryFallback query={query} loading="Loading jobs..." failed="Failed to load the jobs" />
  return (
    <div className="space-y-6">
      {!data.engine.working && (
        <Banner variant="info">
          This node runs no jobs (PORTAL_ROLE=web): the worker nodes run them. The counts are the same everywhere.
        </Banner>
      )}
      <section aria-labelledby="queues-title">
        <h2 id="queues-title" className="mb-2 text-base font-semibold text-slate-900">
          Queues
        </h2>
        <ScrollTable
          caption="Jobs by queue and state"
          className="min-w-full text-sm"
          frameClassName="rounded-lg border border-slate-200 bg-white"
        >
          <thead className="bg-slate-50 text-left text-slate-700">
            <tr>
              <HeaderCells labels={['Queue']} className="px-3 py-2 font-medium" />
              <HeaderCells
                labels={JOB_STATES.map((s) => STATE_LABELS[s])}
                className="px-3 py-2 text-right font-medium"
              />
              <HeaderCells labels={['Schedule (UTC)']} className="px-3 py-2 font-medium" />
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200">
            {data.queues.map((q) => (
              <tr key={q.name}>
                <th scope="row" className="px-3 py-2 text-left font-medium text-slate-900">
                  {QUEUE_LABELS[q.name] ?? q.name}
                </th>
                {JOB_STATES.map((s) => (
                  <td key={s} className="px-3 py-2 text-right text-slate-900 tabular-nums">
                    {q.counts[s] > 0 && s === 'failed' ? <Badge tone="red">{q.counts[s]}</Badge> : q.counts[s]}
                  </td>
                ))}
                <td className="px-3 py-2 font-mono text-xs text-slate-700">
                  {q.schedules.length > 0 ? q.schedules.join(', ') : 'On demand'}
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      </section>
      <section aria-labelledby="failures-title">
        <h2 id="failures-title" className="mb-2 text-base font-semibold text-slate-900">
          Last failures
        </h2>
        <CardList
          label="Failed jobs"
          items={data.failures}
          empty={
            <EmptyState
              icon={CheckCircle2}
              title="No failed jobs"
              description="Jobs that keep failing are kept here with their error."
            />
          }
        >
          {(f) => <FailureItem key={f.id} failure={f} />}
        </CardList>
      </section>
    </div>
  )
}
