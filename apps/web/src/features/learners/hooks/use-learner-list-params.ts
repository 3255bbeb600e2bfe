import { LEARNER_DEFAULT_PAGE_SIZE, LEARNER_PAGE_SIZES, LEARNER_SORTS, type LearnerListQuery } from '@portal/shared'
import { oneOf, pageParam, useListUrlState } from '@/lib/url-state'

/** What the URL keeps: the company (staff), filters, sort, page and the open learner. */
export type LearnerListState = Required<Omit<LearnerListQuery, 'status'>> & {
  status: '' | 'completed' | 'incomplete' | 'not attempted'
  learner: string
}

export const DEFAULT_LEARNER_STATE: LearnerListState = {
  companyId: '',
  page: 1,
  pageSize: LEARNER_DEFAULT_PAGE_SIZE,
  search: '',
  courseId: '',
  status: '',
  sort: 'name',
  order: 'asc',
  learner: '',
}

export function parseLearnerState(params: URLSearchParams): LearnerListState {
  const d = DEFAULT_LEARNER_STATE
  return {
    companyId: params.get('companyId') ?? '',
    page: pageParam(params, d.page),
    pageSize: oneOf(LEARNER_PAGE_SIZES, Number(params.get('pageSize')), d.pageSize),
    search: (params.get('search') ?? '').trim(),
    courseId: params.get('courseId') ?? '',
    status: oneOf(['', 'completed', 'incomplete', 'not attempted'] as const, params.get('status') ?? '', d.status),
    sort: oneOf(LEARNER_SORTS, params.get('sort'), d.sort),
    order: oneOf(['asc', 'desc'] as const, params.get('order'), d.order),
    learner: params.get('learner') ?? '',
  }
}

const PAGE_KEEPERS = ['page', 'learner'] as const

/** The screen's state in the URL: back/forward and reload keep it; any change but the page (or the open learner) goes to page 1. */
export function useLearnerListParams() {
  return useListUrlState(parseLearnerState, DEFAULT_LEARNER_STATE, PAGE_KEEPERS)
}
