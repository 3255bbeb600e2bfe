import {
  pageItemsWithGaps,
  REPORT_DEFAULT_PAGE_SIZE,
  REPORT_PAGE_SIZES,
  showingRecordsText,
  type ReportQuery,
} from '@portal/shared'
import { useState } from 'react'
import { useSearchParams } from 'react-router'
import { useStickyError } from '@/components/ui/error-state'
import { QueryErrorState } from '@/components/ui/query-state'
import { ExportMenu } from '@/components/ui/export-menu'
import { Pagination } from '@/components/ui/pagination'
import { numberOptions, Select } from '@/components/ui/select'
import { Spinner } from '@/components/ui/spinner'
import { CardSection } from '@/components/ui/card-section'
import { errorMessage } from '@/lib/api-error'
import { useDispatchReport } from '../api/get-dispatch-report'
import { hasFilters, NO_FILTERS, ReportFilters, type ReportFilterValues } from './report-filters'
import { ReportTable } from './report-table'

type PageSize = ReportQuery['pageSize']
const PAGE_SIZE_OPTIONS = numberOptions(REPORT_PAGE_SIZES)

/** docs/product-rules.md §8: "Error fetching registrations: {message}", the server's message first. */
export const registrationsErrorText = (error: unknown) =>
  `Error fetching registrations: ${errorMessage(error, error instanceof Error ? error.message : String(error))}`

/**
 * The URL parameter of the repeat-learners filter on the dispatch screen: the licence count card
 * links to the report with it, and reload or back keeps it.
 */
export const REPEAT_LEARNERS_PARAM = 'repeatLearners'

const DATES_OUT_OF_ORDER = 'Last Access To cannot be before Last Access From.'

/** docs/product-rules.md §2 "Completion Report" of the dispatch details screen. */
export function CompletionReport({ dispatchId }: { dispatchId: string }) {
  const [draft, setDraft] = useState<ReportFilterValues>(NO_FILTERS)
  const [applied, setApplied] = useState<ReportFilterValues>(NO_FILTERS)
  const [invalid, setInvalid] = useState<string | null>(null)
  const [page, setPage] = useState(1)
  // docs/product-decisions.md D13: 100 by default.
  const [pageSize, setPageSize] = useState<PageSize>(REPORT_DEFAULT_PAGE_SIZE)

  const [searchParams, setSearchParams] = useSearchParams()
  const repeatLearners = searchParams.get(REPEAT_LEARNERS_PARAM) === 'true'
  const setRepeatLearners = (on: boolean) => {
    setSearchParams((current) => {
      const next = new URLSearchParams(current)
      if (on) next.set(REPEAT_LEARNERS_PARAM, 'true')
      else next.delete(REPEAT_LEARNERS_PARAM)
      return next
    })
    setPage(1)
  }

  const query: ReportQuery = {
    page,
    pageSize,
    ...applied,
    search: applied.search.trim(),
    ...(repeatLearners ? { repeatLearners: true } : {}),
  }
  const report = useDispatchReport(dispatchId, query)
  const { data, error, isPlaceholderData } = report
  const shownError = useStickyError(error, data !== undefined)

  // docs/product-rules.md §9: the page goes back to 1 on any filter or size change.
  const apply = (filters: ReportFilterValues) => {
    if (filters.startDate && filters.endDate && filters.endDate < filters.startDate) {
      setInvalid(DATES_OUT_OF_ORDER)
      return
    }
    setInvalid(null)
    setApplied(filters)
    setPage(1)
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
            apply(NO_FILTERS)
            if (repeatLearners) setRepeatLearners(false)
          }}
          onRepeatLearnersChange={setRepeatLearners}
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
              value={String(pageSize)}
              options={PAGE_SIZE_OPTIONS}
              onChange={(e) => {
                setPageSize(Number(e.target.value) as PageSize)
                setPage(1)
              }}
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
            onPageChange={setPage}
          />
        )}
      </div>
    </CardSection>
  )
}
