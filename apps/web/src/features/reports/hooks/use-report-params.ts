import { COMPLETION_STATUSES, REPORT_DEFAULT_PAGE_SIZE, REPORT_PAGE_SIZES, type ReportQuery } from '@portal/shared'
import { oneOf, pageParam, useListUrlState } from '@/lib/url-state'

/**
 * What the URL keeps of a dispatch's completion report: the applied filters, the page and its
 * size, so reload, back/forward and a copied link show the same rows.
 */
export type ReportState = {
  page: number
  pageSize: ReportQuery['pageSize']
  search: string
  status: '' | (typeof COMPLETION_STATUSES)[number]
  startDate: string
  endDate: string
  /** Only the registrations of learners with more than one on the dispatch. */
  repeatLearners: boolean
}

export const DEFAULT_REPORT_STATE: ReportState = {
  page: 1,
  // docs/product-decisions.md D13: 100 by default.
  pageSize: REPORT_DEFAULT_PAGE_SIZE,
  search: '',
  status: '',
  startDate: '',
  endDate: '',
  repeatLearners: false,
}

const isDay = (value: string | null): value is string => value !== null && /^\d{4}-\d{2}-\d{2}$/.test(value)

export function parseReportState(params: URLSearchParams): ReportState {
  const d = DEFAULT_REPORT_STATE
  const startDate = isDay(params.get('startDate')) ? params.get('startDate')! : ''
  const endDate = isDay(params.get('endDate')) ? params.get('endDate')! : ''
  return {
    page: pageParam(params, d.page),
    pageSize: oneOf(REPORT_PAGE_SIZES, Number(params.get('pageSize')), d.pageSize),
    search: (params.get('search') ?? '').trim(),
    status: oneOf(['', ...COMPLETION_STATUSES] as const, params.get('status') ?? '', d.status),
    startDate,
    // A window that ends before it starts (an edited link) is read as open-ended rather than
    // sent to the server, which would refuse it.
    endDate: startDate && endDate && endDate < startDate ? '' : endDate,
    repeatLearners: params.get('repeatLearners') === 'true',
  }
}

/** The report's state in the URL; any change but the page goes back to page 1 (docs/product-rules.md §9). */
export function useReportParams() {
  return useListUrlState(parseReportState, DEFAULT_REPORT_STATE)
}
