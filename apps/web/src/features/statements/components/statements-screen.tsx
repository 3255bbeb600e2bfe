import { can, statementExportBaseName, type Role, type Statement } from '@portal/shared'
import { useMemo } from 'react'
import { useSearchParams } from 'react-router'
import { EmptyState } from '@/components/ui/empty-state'
import { HeaderCells } from '@/components/ui/header-cells'
import { CheckboxField } from '@/components/ui/inline-form'
import { QueryContent } from '@/components/ui/query-state'
import { ExportMenu } from '@/components/ui/export-menu'
import { Select } from '@/components/ui/select'
import { useCompanyOptions } from '@/lib/company-options'
import { useStatement, type StatementPeriod } from '../api/get-statement'

/** The month before `now` as yyyy-MM: the default statement (the last complete month). */
export function lastMonth(now = new Date()): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7)
}

const remainingText = (value: number | null) => (value === null ? 'Unlimited' : String(value))

function StatementTable({ statement }: { statement: Statement }) {
  const t = statement.total
  return (
    <div
      role="region"
      aria-label={`Usage statement ${statement.period}`}
      // A scrollable region must be reachable by keyboard (axe: scrollable-region-focusable).
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
      tabIndex={0}
      className="overflow-x-auto rounded-lg border border-slate-200 bg-white"
    >
      <table className="min-w-full text-sm">
        <caption className="sr-only">{`Usage statement ${statement.period} of ${statement.companyName}`}</caption>
        <thead className="bg-slate-50 text-left text-slate-700">
          <tr>
            <HeaderCells labels={['Course']} className="px-4 py-2" />
            <HeaderCells
              labels={['Registrations added', 'Learners launched', 'Completions', 'Licences remaining at end']}
              className="px-4 py-2 text-right"
            />
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {statement.lines.map((line) => (
            <tr key={line.dispatchId}>
              <th scope="row" className="px-4 py-2 text-left font-normal text-slate-900">
                {line.courseTitle}
              </th>
              <td className="px-4 py-2 text-right">{line.registrationsAdded}</td>
              <td className="px-4 py-2 text-right">{line.learnersLaunched}</td>
              <td className="px-4 py-2 text-right">{line.completions}</td>
              <td className="px-4 py-2 text-right">
                {remainingText(line.remainingAtEnd)}
                {line.capAtEnd !== null && (
                  <span className="text-slate-500">{` (${line.countAtEnd} of ${line.capAtEnd} used)`}</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
        <tfoot className="border-t border-slate-200 bg-slate-50 font-medium">
          <tr>
            <th scope="row" className="px-4 py-2 text-left">
              Total
            </th>
            <td className="px-4 py-2 text-right">{t.registrationsAdded}</td>
            <td className="px-4 py-2 text-right">{t.learnersLaunched}</td>
            <td className="px-4 py-2 text-right">{t.completions}</td>
            <td className="px-4 py-2 text-right">
              {t.remainingAtEnd}
              {t.unlimitedDispatches > 0 && ` + ${t.unlimitedDispatches} unlimited`}
            </td>
          </tr>
        </tfoot>
      </table>
    </div>
  )
}

/**
 * /statements: a company's usage statement of a month (default: last month) or a whole year,
 * per dispatch and in total, with its CSV/.xlsx export. A client sees its own company's; staff
 * pick the company. The URL keeps the choices.
 */
export function StatementsScreen({ role, ownCompanyId }: { role: Role; ownCompanyId: string | null }) {
  const [params, setParams] = useSearchParams()
  const staff = can(role, 'destination.read')
  const companyId = staff ? (params.get('companyId') ?? '') : (ownCompanyId ?? '')
  const month = params.get('month') ?? lastMonth()
  const wholeYear = params.get('year') === 'true'
  const period: StatementPeriod = wholeYear ? { year: month.slice(0, 4) } : { month }
  const query = useStatement(companyId, period)
  const { data } = query
  const companies = useCompanyOptions(staff)
  const companyOptions = useMemo(
    () => [
      { value: '', label: 'Choose a company' },
      ...(companies.data ?? []).map((c) => ({ value: c.id, label: c.name || c.id })),
    ],
    [companies.data],
  )
  const set = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params)
    for (const [key, value] of Object.entries(changes)) {
      if (value === null || value === '') next.delete(key)
      else next.set(key, value)
    }
    setParams(next, { replace: true })
  }
  const periodLabel = 'month' in period ? period.month : period.year

  return (
    <div className="space-y-6">
      <form className="flex flex-wrap items-end gap-4" onSubmit={(e) => e.preventDefault()}>
        {staff && (
          <div className="min-w-64">
            <Select
              label="Company"
              options={companyOptions}
              value={companyId}
              onChange={(e) => set({ companyId: e.target.value })}
            />
          </div>
        )}
        <div className="flex flex-col gap-1.5">
          <label htmlFor="statement-month" className="text-sm font-medium text-slate-800">
            Month (yyyy-MM)
          </label>
          <input
            id="statement-month"
            type="month"
            value={month}
            max={new Date().toISOString().slice(0, 7)}
            onChange={(e) => set({ month: e.target.value || null })}
            className="h-10 rounded-md border border-slate-300 bg-white px-3 text-sm text-slate-900 shadow-xs"
          />
        </div>
        <CheckboxField
          label="Whole year"
          checked={wholeYear}
          onChange={(checked) => set({ year: checked ? 'true' : null })}
        />
        {data && companyId && (
          <ExportMenu
            path={`/api/statements/${encodeURIComponent(companyId)}/export`}
            params={period}
            fileName={statementExportBaseName(data.companyName, periodLabel)}
            label="Export statement"
          />
        )}
      </form>
      {!companyId ? (
        <EmptyState title="Choose a company" description="Pick the company whose usage statement you want to see." />
      ) : (
        <QueryContent query={query} loading="Loading statement..." what="the statement" spinnerClassName="py-12">
          {(statement) => (
            <section aria-labelledby="statement-heading" className="space-y-3">
              <h2 id="statement-heading" className="text-lg font-semibold text-slate-900">
                {`${statement.companyName}: ${wholeYear ? `year ${statement.period}` : statement.period}`}
              </h2>
              {statement.lines.length === 0 ? (
                <EmptyState title="No dispatches in this period" />
              ) : (
                <StatementTable statement={statement} />
              )}
            </section>
          )}
        </QueryContent>
      )}
    </div>
  )
}
