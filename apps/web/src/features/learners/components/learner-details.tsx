import { formatDateTime, formatDuration, formatScore, LEARNER_REGISTRATIONS_LIMIT } from '@portal/shared'
import { HeaderCells, ScrollTable } from '@/components/ui/header-cells'
import { Link } from '@/components/ui/link'
import { Modal } from '@/components/ui/modal'
import { Spinner } from '@/components/ui/spinner'
import { paths } from '@/config/paths'
import { errorMessage } from '@/lib/api-error'
import { CompletionBadge, SuccessBadge } from '@/components/ui/status-badges'
import { useLearnerRegistrations } from '../api/get-learners'

const COLUMNS = ['Course', 'Completion', 'Success', 'Score', 'Time', 'Last Access'] as const

/** A learner's registrations across the company's courses, each linking to its dispatch. */
export function LearnerDetails({
  learnerKey,
  companyId,
  onClose,
}: {
  learnerKey: string
  companyId: string | undefined
  onClose: () => void
}) {
  const { data, error, isPending } = useLearnerRegistrations(learnerKey, companyId)
  const name = data?.learner ? `${data.learner.firstName} ${data.learner.lastName}`.trim() : ''
  return (
    <Modal title={name ? `Learner: ${name}` : 'Learner'} onClose={onClose} className="max-w-4xl">
      {data?.learner?.email && <p className="mb-3 text-sm break-all text-slate-600">{data.learner.email}</p>}
      {/* The server lists at most this many, newest access first, and sends no total: say the list may be cut. */}
      {data && data.registrations.length >= LEARNER_REGISTRATIONS_LIMIT && (
        <p className="mb-3 text-sm text-slate-600">
          Showing the first {LEARNER_REGISTRATIONS_LIMIT} registrations, most recently accessed first.
        </p>
      )}
      {isPending ? (
        <Spinner label="Loading registrations..." className="py-6" />
      ) : error ? (
        <p role="alert" className="text-sm text-red-700">
          {errorMessage(error, 'Failed to fetch the learner’s registrations')}
        </p>
      ) : data.registrations.length === 0 ? (
        <p className="text-sm text-slate-600">No registrations found</p>
      ) : (
        <ScrollTable
          caption={`Registrations of ${name || learnerKey}`}
          className="min-w-full divide-y divide-slate-200 text-sm"
        >
          <thead className="bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-700 uppercase">
            <tr>
              <HeaderCells labels={COLUMNS} className="px-3 py-2" />
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200">
            {data.registrations.map((r) => (
              <tr key={r.id}>
                <td className="px-3 py-2">
                  <Link to={paths.dispatch.getHref(r.dispatchId)}>{r.courseTitle}</Link>
                </td>
                <td className="px-3 py-2">
                  <CompletionBadge status={r.completionStatus} />
                </td>
                <td className="px-3 py-2">
                  <SuccessBadge status={r.successStatus} />
                </td>
                <td className="px-3 py-2 tabular-nums">{formatScore(r.score)}</td>
                <td className="px-3 py-2 tabular-nums">{formatDuration(r.totalTimeTracked)}</td>
                <td className="px-3 py-2">{r.lastAccessDate ? formatDateTime(r.lastAccessDate) : 'Never'}</td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      )}
    </Modal>
  )
}
