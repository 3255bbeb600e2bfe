import { formatDateTime, formatDuration, formatScore, type ReportRegistration } from '@portal/shared'
import { ResponsiveTable, type Column } from '@/components/ui/responsive-table'
import { CompletionBadge, SuccessBadge } from '@/components/ui/status-badges'

const learnerName = (r: ReportRegistration) => `${r.learnerFirstName} ${r.learnerLastName}`.trim()

/** docs/product-rules.md §2 completion report columns: Learner, Completion, Score, Time, Last Access. */
const COLUMNS: Column<ReportRegistration>[] = [
  {
    header: 'Learner',
    primary: true,
    rowHeader: true,
    cell: (r) => {
      const name = learnerName(r)
      return (
        <>
          <span className="block font-medium text-slate-900">{name || r.learnerEmail}</span>
          {name && <span className="block break-all text-slate-600">{r.learnerEmail}</span>}
        </>
      )
    },
  },
  {
    header: 'Completion',
    cell: (r) => (
      <span className="flex flex-wrap gap-1">
        <CompletionBadge status={r.completionStatus} />
        <SuccessBadge status={r.successStatus} />
      </span>
    ),
  },
  { header: 'Score', className: 'tabular-nums', cell: (r) => formatScore(r.score) },
  { header: 'Time', className: 'tabular-nums whitespace-nowrap', cell: (r) => formatDuration(r.totalTimeTracked) },
  {
    header: 'Last Access',
    className: 'whitespace-nowrap',
    cell: (r) =>
      r.lastAccessDate ? (
        formatDateTime(r.lastAccessDate)
      ) : (
        <span className="text-slate-500 italic">Never accessed</span>
      ),
  },
]

export function ReportTable({ registrations }: { registrations: ReportRegistration[] }) {
  return <ResponsiveTable caption="Learner registrations" columns={COLUMNS} rows={registrations} rowKey={(r) => r.id} />
}
