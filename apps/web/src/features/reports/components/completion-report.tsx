import { pageItemsWithGaps, REPORT_PAGE_SIZES, showingRecordsText, type ReportQuery } from '@portal/shared'
import { useState } from 'react'
import { useStickyError } from '@/components/ui/error-state'
import { QueryErrorState } from '@/components/ui/query-state'
import { ExportMenu } from '@/components/ui/export-menu'
import { Pagination } from '@/components/ui/pagination'
import { numberOptions, Select } from '@/components/ui/select'
import { Spinner } from '@/components/ui/spinner'
import { CardSection } from '@/components/ui/card-section'
import { errorMessage } from '@/lib/api-error'
import { useDispatchReport } from '../api/get-dispatch-report'
import { useReportParams } from '../hooks/use-report-params'
import { hasFilters, NO_FILTERS, ReportFilters, type ReportFilterValues } from './report-filters'
import { ReportTable } from './report-table'

type PageSize = ReportQuery['pageSize']
const PAGE_SIZE_OPTIONS = numberOptions(REPORT_PAGE_SIZES)

/** docs/product-rules.md §8: "Error fetching registrations: {message}", the server's message first. */
export const registrationsErrorText = (error: unknown) =>
  `Error fetching registrations: ${errorMessage(error, error instanceof Error ? error.message : String(error))}`

const DATES_OUT_OF_ORDER = 'Last Access To cannot be before Last Access From.'

const filtersOf = ({ search, status, startDate, endDate }: ReportFilterValues): ReportFilterValues => ({
  search,
  status,
  startDate,
  endDate,
})

/** docs/product-rules.md §2 "Completion Report" of the dispatch details screen. */
export function CompletionReport({ dispatchId }: { dispatchId: string }) {
  // The applied filters, page and size live in the URL (reload, back and a shared link keep
  // them); the fields' draft is the screen's own until Apply Filters.
  const { state, update } = useReportParams()
  const applied = filtersOf(state)
  const [draft, setDraft] = useState<ReportFilterValues>(applied)
  const [invalid, setInvalid] = useState<string | null>(null)
  // Back/forward to other applied filters shows them in the fields too (state adjusted while
  // rendering, as React advises for state derived from a changed input).
  const appliedKey = JSON.stringify(applied)
  const [shownKey, setShownKey] = useState(appliedKey)
  if (shownKey !== appliedKey) {
    setShownKey(appliedKey)
    setDraft(applied)
  }
  const { repeatLearners } = state

  const query: ReportQuery = {
    page: state.page,
    pageSize: state.pageSize,
    ...applied,
    ...(repeatLearners ? { repeatLearners: true } : {}),
  }
  const report = useDispatchReport(dispatchId, query)
  const { data, error, isPlaceholderData } = report
  const shownError = useStickyError(error, data !== undefined)

  // docs/product-rules.md §9: the page goes back to 1 on any filter or size change (the URL
  // state does it for every change but the page's own).
  const apply = (filters: ReportFilterValues) => {
    if (filters.startDate && filters.endDate && filters.endDate < filters.startDate) {
      setInvalid(DATES_OUT_OF_ORDER)
      return
    }
    setInvalid(null)
    update({ ...filters, search: filters.search.trim() })
  }

  const pagination = data?.pagination

  return (
    <CardSection id="completion-report" title="Completion Report">
      <div className="mt-4 space-y-4">
        <ReportFilters
          draft={draft}
          invalid={invalid}
          showClear={hasFilters(applied) || hasFilters(draft) || repeatLearners}
          repeatLearners={repeatLearners}
          onChange={setDraft}
          onApply={() => apply(draft)}
          onClear={() => {
            setDraft(NO_FILTERS)
            setInvalid(null)
            update({ ...NO_FILTERS, repeatLearners: false })
          }}
          onRepeatLearnersChange={(on) => update({ repeatLearners: on })}
        />
        <div className="flex flex-wrap items-end justify-between gap-3">
          <p className="text-sm text-slate-700" aria-live="polite">
            {pagination && pagination.totalItems > 0 && (
              <>
                {showingRecordsText(pagination.page, pagination.pageSize, pagination.totalItems, data.totalCapped)}
                {!data.totalCapped && (
                  <span className="text-slate-500">
                    {' '}
                    · {data.distinctLearners} {data.distinctLearners === 1 ? 'learner' : 'learners'}
                  </span>
                )}
              </>
            )}
          </p>
          <div className="flex items-end gap-3">
            <Select
              label="Records per page"
              value={String(state.pageSize)}
              options={PAGE_SIZE_OPTIONS}
              onChange={(e) => update({ pageSize: Number(e.target.value) as PageSize })}
            />
            {/* Every row of exactly the applied filters, not the page; beside the
                results it exports, where its open menu covers none of the filters. */}
            <ExportMenu
              path={`/api/reports/dispatch/${encodeURIComponent(dispatchId)}/export`}
              params={{
                search: query.search || undefined,
                status: query.status || undefined,
                startDate: query.startDate || undefined,
                endDate: query.endDate || undefined,
                repeatLearners: repeatLearners ? 'true' : undefined,
              }}
              fileName="completion report"
            />
          </div>
        </div>
        {data ? (
          data.registrations.length === 0 ? (
            <p className="rounded-lg border border-dashed border-slate-300 px-6 py-10 text-center text-slate-600">
              No registrations found
            </p>
          ) : (
            <div aria-busy={isPlaceholderData} className={isPlaceholderData ? 'opacity-60' : undefined}>
              <ReportTable registrations={data.registrations} />
            </div>
          )
        ) : shownError ? (
          <QueryErrorState query={report} message={registrationsErrorText(shownError)} />
        ) : (
          <Spinner label="Loading registrations..." className="py-8" />
        )}
        {pagination && (
          <Pagination
            label="Report pages"
            page={pagination.page}
            totalPages={pagination.totalPages}
            items={pageItemsWithGaps(pagination.page, pagination.totalPages)}
            onPageChange={(page) => update({ page })}
          />
        )}
      </div>
    </CardSection>
  )
}
