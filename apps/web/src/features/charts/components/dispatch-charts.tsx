import type { DispatchCharts as DispatchChartsData } from '@portal/shared'
import { useDispatchCharts } from '../api/get-charts'
import { OKABE_ITO, type ChartDatum } from './chart-palette'
import { ChartPanel, oneSeries } from './chart-panel'

/** "May 25" for a week's Monday (UTC). */
const weekLabel = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' })

function statusRows(status: DispatchChartsData['status']): ChartDatum[] {
  return [
    { label: 'Completed', count: status.completed, colour: OKABE_ITO.bluishGreen, pattern: 'solid' },
    { label: 'Incomplete', count: status.incomplete, colour: OKABE_ITO.orange, pattern: 'stripes' },
    { label: 'Not started', count: status.notStarted, colour: OKABE_ITO.skyBlue, pattern: 'dots' },
    { label: 'Passed', count: status.passed, colour: OKABE_ITO.blue, pattern: 'solid' },
    { label: 'Failed', count: status.failed, colour: OKABE_ITO.vermillion, pattern: 'crosshatch' },
  ]
}

/** The dispatch details' charts (completions per week, status breakdown). */
export function DispatchCharts({ dispatchId }: { dispatchId: string }) {
  const query = useDispatchCharts(dispatchId)
  const data = query.data
  const weeks: ChartDatum[] = (data?.weeks ?? []).map((w) => ({ label: weekLabel(w.week), completions: w.completions }))
  const status = data ? statusRows(data.status) : []
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <ChartPanel
        title="Completions per week"
        description="Registrations completed in each of the last 26 weeks (weeks start on Monday, UTC)."
        state={query}
        empty={weeks.every((w) => w.completions === 0)}
        emptyText="No completions in the last 26 weeks."
        {...oneSeries('bar', weeks, 'Week of', { key: 'completions', label: 'Completions' })}
      />
      <ChartPanel
        title="Progress and results"
        description="Registrations by completion status, and by result."
        state={query}
        empty={(data?.status.registrations ?? 0) === 0}
        emptyText="No registrations yet."
        {...oneSeries('bar', status, 'Status', { key: 'count', label: 'Registrations' }, { perCategory: true })}
      />
    </div>
  )
}
