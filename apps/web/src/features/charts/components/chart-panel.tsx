import { lazy, Suspense, useId, useState, type ReactNode } from 'react'
import { Button } from '@/components/ui/button'
import { QueryErrorState } from '@/components/ui/query-state'
import { Spinner } from '@/components/ui/spinner'
import { errorMessage } from '@/lib/api-error'
import { CHART_HEIGHT, OKABE_ITO, type ChartDatum, type ChartSeries } from './chart-palette'

/** The charting library (recharts) loads with the first chart shown, in its own chunk. */
const ChartView = lazy(() => import('./chart-view'))

export interface ChartSpec {
  kind: 'bar' | 'line'
  data: ChartDatum[]
  series: ChartSeries[]
  /** Bars coloured per category (a row's `colour` and `pattern`), not per series. */
  perCategory?: boolean
  /** A horizontal reference line (the cap of a usage trend). */
  reference?: { value: number; label: string }
}

export interface ChartTable {
  columns: { key: string; label: string; numeric?: boolean }[]
  rows: Record<string, string | number>[]
}

/**
 * A chart of one series over categories and its table: the category column (`category` names it),
 * then the series' figures. `more` adds to the chart (bars per category, a reference line).
 */
export function oneSeries(
  kind: ChartSpec['kind'],
  rows: ChartDatum[],
  category: string,
  series: { key: string; label: string },
  more: Partial<ChartSpec> = {},
): { chart: ChartSpec; table: ChartTable } {
  return {
    chart: { kind, data: rows, series: [{ ...series, colour: OKABE_ITO.blue }], ...more },
    table: {
      columns: [
        { key: 'label', label: category },
        { ...series, numeric: true },
      ],
      rows,
    },
  }
}

/**
 * A chart in a card, with its text alternative a "Show as table" toggle away, and
 * loading, empty and error states.
 */
export function ChartPanel({
  title,
  description,
  state,
  empty,
  emptyText = 'No data for this period.',
  chart,
  table,
  children,
}: {
  title: string
  description?: string
  state: { isPending: boolean; error: unknown; isFetching: boolean; refetch: () => unknown }
  empty: boolean
  emptyText?: string
  chart?: ChartSpec
  table: ChartTable
  /** Content shown instead of a chart (a list that is its own text alternative). */
  children?: ReactNode
}) {
  const [asTable, setAsTable] = useState(false)
  const headingId = useId()
  const showToggle = chart !== undefined && !state.isPending && !state.error && !empty
  // While a chart loads (its figures or its chunk) the card already has the chart's height, so
  // what sits below it does not move down when the chart appears.
  const reserve = chart !== undefined && !asTable && !state.error && (state.isPending || !empty)
  let body: ReactNode
  if (state.isPending) body = <Spinner label={`Loading ${title.toLowerCase()}...`} className="py-8" />
  else if (state.error)
    body = (
      <QueryErrorState
        query={state}
        message={`Could not load the chart: ${errorMessage(state.error, 'the server did not answer')}`}
      />
    )
  else if (empty) body = <p className="py-8 text-center text-sm text-slate-600">{emptyText}</p>
  else if (asTable || !chart) body = children ?? <DataTable title={title} table={table} />
  else
    body = (
      <Suspense fallback={<Spinner label="Loading chart..." className="py-8" />}>
        <div role="img" aria-label={`${title}: chart. Use "Show as table" for the figures.`}>
          <ChartView {...chart} />
        </div>
      </Suspense>
    )
  return (
    <section aria-labelledby={headingId} className="min-w-0 rounded-lg border border-slate-200 bg-white p-6 shadow-xs">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h2 id={headingId} className="text-lg font-semibold text-slate-900">
            {title}
          </h2>
          {description && <p className="mt-1 text-sm text-slate-600">{description}</p>}
        </div>
        {showToggle && (
          <Button variant="secondary" size="sm" aria-pressed={asTable} onClick={() => setAsTable(!asTable)}>
            {asTable ? 'Show as chart' : 'Show as table'}
          </Button>
        )}
      </div>
      <div className="mt-4" style={reserve ? { minHeight: CHART_HEIGHT } : undefined}>
        {body}
      </div>
    </section>
  )
}

export function DataTable({ title, table }: { title: string; table: ChartTable }) {
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <caption className="sr-only">{title}</caption>
        <thead>
          <tr>
            {table.columns.map((column) => (
              <th
                key={column.key}
                scope="col"
                className={`px-3 py-2 font-semibold text-slate-700 ${column.numeric ? 'text-right' : 'text-left'}`}
              >
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {table.rows.map((row, i) => (
            <tr key={i}>
              {table.columns.map((column, j) =>
                j === 0 ? (
                  <th key={column.key} scope="row" className="px-3 py-1.5 text-left font-normal text-slate-900">
                    {row[column.key]}
                  </th>
                ) : (
                  <td
                    key={column.key}
                    className={`px-3 py-1.5 text-slate-900 ${column.numeric ? 'text-right tabular-nums' : ''}`}
                  >
                    {typeof row[column.key] === 'number'
                      ? (row[column.key] as number).toLocaleString('en-US')
                      : row[column.key]}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
