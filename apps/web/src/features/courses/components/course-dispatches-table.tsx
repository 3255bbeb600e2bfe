import { formatDate, formatRegistrations, usageColour, usagePercent, type CourseDispatch } from '@portal/shared'
import { Inbox } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { EmptyState } from '@/components/ui/empty-state'
import { Link } from '@/components/ui/link'
import { ProgressBar } from '@/components/ui/progress-bar'
import { paths } from '@/config/paths'
import { DataTable } from '@/components/ui/responsive-table'

/** docs/product-rules.md §9 usage colours. */
const BAR_COLOURS = { green: 'bg-green-600', yellow: 'bg-yellow-500', red: 'bg-red-600' } as const

/** docs/product-rules.md §2 Dispatches table (admin, sales, internal): cap 0 is unlimited (∞, no bar). */
export function CourseDispatchesTable({ dispatches }: { dispatches: CourseDispatch[] }) {
  return (
    <section aria-labelledby="course-dispatches" className="space-y-3">
      <h2 id="course-dispatches" className="text-lg font-semibold text-slate-900">
        Dispatches
      </h2>
      {dispatches.length === 0 ? (
        <EmptyState
          icon={Inbox}
          title="No dispatches found"
          description="This course has not been dispatched to any clients yet."
        />
      ) : (
        <DataTable
          caption="Dispatches of this course"
          headers={['Client', 'Status', 'Registrations', 'Created', 'Actions']}
        >
          {dispatches.map((d) => {
            const percent = usagePercent(d.registrationCount, d.registrationCap)
            return (
              <tr key={d.id}>
                <td className="px-4 py-3 font-medium whitespace-nowrap text-slate-900">{d.destinationName}</td>
                <td className="px-4 py-3">
                  <Badge tone={d.enabled ? 'green' : 'neutral'}>{d.enabled ? 'Enabled' : 'Disabled'}</Badge>
                </td>
                <td className="min-w-40 px-4 py-3 text-slate-700 tabular-nums">
                  <div>{formatRegistrations(d.registrationCount, d.registrationCap)}</div>
                  {percent !== null ? (
                    <ProgressBar
                      value={percent}
                      label={`Registrations used by ${d.destinationName}`}
                      className="mt-1"
                      barClassName={BAR_COLOURS[usageColour(percent)]}
                    />
                  ) : (
                    // No cap, no bar: a dashed track of the same height keeps the rows even.
                    <div aria-hidden="true" className="mt-1 h-2 rounded-full border border-dashed border-slate-300" />
                  )}
                </td>
                <td className="px-4 py-3 whitespace-nowrap text-slate-700">{formatDate(d.created)}</td>
                <td className="px-4 py-3">
                  <Link to={paths.dispatch.getHref(d.id)} aria-label={`View Details: ${d.destinationName}`}>
                    View Details
                  </Link>
                </td>
              </tr>
            )
          })}
        </DataTable>
      )}
    </section>
  )
}
