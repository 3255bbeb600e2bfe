import { formatDateTime, formatDuration, formatScore, type ReportRegistration } from '@portal/shared'
import { CompletionBadge, SuccessBadge } from './status-badges'

const th = 'px-4 py-3 text-left text-xs font-semibold tracking-wide text-slate-700 uppercase'

/** SPEC §2 completion report columns: Learner, Completion, Score, Time, Last Access. */
export function ReportTable({ registrations }: { registrations: ReportRegistration[] }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <caption className="sr-only">Learner registrations</caption>
        <thead className="bg-slate-50">
          <tr>
            <th scope="col" className={th}>
              Learner
            </th>
            <th scope="col" className={th}>
              Completion
            </th>
            <th scope="col" className={th}>
              Score
            </th>
            <th scope="col" className={th}>
              Time
            </th>
            <th scope="col" className={th}>
              Last Access
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200 bg-white">
          {registrations.map((r) => {
            const name = `${r.learnerFirstName} ${r.learnerLastName}`.trim()
            return (
              <tr key={r.id}>
                <th scope="row" className="px-4 py-3 text-left font-normal">
                  <span className="block font-medium text-slate-900">{name || r.learnerEmail}</span>
                  {name && <span className="block text-slate-600">{r.learnerEmail}</span>}
                </th>
                <td className="px-4 py-3">
                  <span className="flex flex-wrap gap-1">
                    <CompletionBadge status={r.completionStatus} />
                    <SuccessBadge status={r.successStatus} />
                  </span>
                </td>
                <td className="px-4 py-3 tabular-nums">{formatScore(r.score)}</td>
                <td className="px-4 py-3 tabular-nums">{formatDuration(r.totalTimeTracked)}</td>
                <td className="px-4 py-3">
                  {r.lastAccessDate ? (
                    formatDateTime(r.lastAccessDate)
                  ) : (
                    <span className="text-slate-500 italic">Never accessed</span>
                  )}
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </div>
  )
}
