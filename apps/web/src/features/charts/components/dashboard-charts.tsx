import { can, usagePercent, type DashboardCharts as DashboardChartsData, type Role } from '@portal/shared'
import { Link } from 'react-router'
import { paths } from '@/config/paths'
import { UsageBar } from '@/components/ui/usage-bar'
import { useListDashboardCharts } from '../api/get-charts'
import type { ChartDatum } from './chart-palette'
import { ChartPanel, oneSeries } from './chart-panel'

/** "Mar 2026" for YYYY-MM. */
const monthLabel = (month: string) =>
  new Date(`${month}-01T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' })

/**
 * The dashboard's charts over the list's own filters (search, status, from the URL):
 * registrations per month; for staff the ten dispatches nearest their cap, for a client its
 * usage trend (docs/decisions.md).
 */
export function DashboardCharts({ role }: { role: Role }) {
  const query = useListDashboardCharts()
  const data = query.data
  const months: ChartDatum[] = (data?.months ?? []).map((m) => ({
    label: monthLabel(m.month),
    registrations: m.registrations,
    cumulative: m.cumulative,
  }))
  const staff = can(role, 'destination.read')
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <ChartPanel
        title="Registrations per month"
        description="New registrations in each of the last 12 months, across the dispatches listed below."
        state={query}
        empty={months.every((m) => m.registrations === 0)}
        emptyText="No registrations in the last 12 months."
        {...oneSeries('bar', months, 'Month', { key: 'registrations', label: 'Registrations' })}
      />
      {staff ? (
        <NearestCap state={query} data={data} />
      ) : (
        <ChartPanel
          title="Usage trend"
          description={usageDescription(data)}
          state={query}
          empty={months.every((m) => m.cumulative === 0)}
          emptyText="No registrations yet."
          {...oneSeries(
            'line',
            months,
            'Month',
            { key: 'cumulative', label: 'Registrations to date' },
            { reference: data?.usage.capacity ? { value: data.usage.capacity, label: 'Registration cap' } : undefined },
          )}
        />
      )}
    </div>
  )
}

function usageDescription(data: DashboardChartsData | undefined): string {
  const base = 'Registrations created up to the end of each month.'
  if (!data?.usage.capacity) return base
  const percent = usagePercent(data.usage.used, data.usage.capacity)
  return `${base} Capped dispatches today: ${data.usage.used.toLocaleString('en-US')} of ${data.usage.capacity.toLocaleString('en-US')} used (${percent ?? 0}%).`
}

/** Staff: the ten dispatches nearest their cap, as a table with usage bars (its own text alternative). */
function NearestCap({
  state,
  data,
}: {
  state: Parameters<typeof ChartPanel>[0]['state']
  data: DashboardChartsData | undefined
}) {
  const rows = data?.nearestCap ?? []
  return (
    <ChartPanel
      title="Nearest their cap"
      description="The ten capped dispatches listed below with the largest share of their cap used."
      state={state}
      empty={rows.length === 0}
      emptyText="No capped dispatches."
      table={{ columns: [], rows: [] }}
    >
      <ol className="space-y-3">
        {rows.map((row) => {
          const percent = usagePercent(row.registrationCount, row.registrationCap) ?? 0
          return (
            <li key={row.id} className="text-sm">
              <div className="flex justify-between gap-3">
                <Link
                  to={paths.dispatch.getHref(row.id)}
                  className="truncate font-medium text-blue-700 hover:underline"
                >
                  {row.destinationName} · {row.courseTitle}
                </Link>
                <span className="shrink-0 tabular-nums text-slate-700">
                  {row.registrationCount.toLocaleString('en-US')} / {row.registrationCap.toLocaleString('en-US')} (
                  {percent}%)
                </span>
              </div>
              <UsageBar percent={percent} label={`${row.destinationName}, ${row.courseTitle}: registrations used`} />
            </li>
          )
        })}
      </ol>
    </ChartPanel>
  )
}
