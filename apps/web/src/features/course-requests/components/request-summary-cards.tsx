import { COURSE_REQUEST_STATUSES, type CourseRequestStatus } from '@portal/shared'
import { CheckCircle2, Clock, PackageCheck } from 'lucide-react'
import { STATUS_LABELS } from '../types'

/** Processed: the licenses were delivered (a dispatch made or topped up), not work in progress. */
const ICONS = { PENDING: Clock, PROCESSED: PackageCheck, COMPLETED: CheckCircle2 } as const

/** docs/product-rules.md §2 My Course Requests: Pending, Processed and Completed counts. */
export function RequestSummaryCards({ counts }: { counts: Record<CourseRequestStatus, number> }) {
  return (
    <div className="grid gap-4 sm:grid-cols-3">
      {COURSE_REQUEST_STATUSES.map((status) => {
        const Icon = ICONS[status]
        return (
          <section
            key={status}
            aria-label={STATUS_LABELS[status]}
            className="rounded-lg border border-slate-200 bg-white p-4 shadow-xs"
          >
            <div className="flex items-center justify-between gap-2">
              <h2 className="text-sm font-medium text-slate-600">{STATUS_LABELS[status]}</h2>
              <Icon aria-hidden="true" className="size-5 text-blue-700" />
            </div>
            <p className="mt-2 text-2xl font-semibold text-slate-900 tabular-nums">{counts[status]}</p>
          </section>
        )
      })}
    </div>
  )
}
