import { Type, type Static } from 'typebox'
import { IsoDaySchema as IsoDay, Nullable, OneOf, PageNumberSchema, PaginationSchema, SearchTermSchema } from './common'
import { DispatchSchema } from './dispatches'

/** docs/product-rules.md §9 and docs/product-decisions.md D13: completion report page sizes, default 100. */
export const REPORT_PAGE_SIZES = [10, 25, 50, 100] as const
export const REPORT_DEFAULT_PAGE_SIZE = 100
export const COMPLETION_STATUSES = ['completed', 'incomplete', 'not attempted'] as const
export type CompletionStatus = (typeof COMPLETION_STATUSES)[number]

export const ReportQuerySchema = Type.Object({
  page: PageNumberSchema,
  pageSize: OneOf(REPORT_PAGE_SIZES, { default: REPORT_DEFAULT_PAGE_SIZE }),
  /** Learner name or email. */
  search: Type.Optional(SearchTermSchema),
  status: Type.Optional(
    Type.Union([
      Type.Literal(''),
      Type.Literal('completed'),
      Type.Literal('incomplete'),
      Type.Literal('not attempted'),
    ]),
  ),
  /** On last access, inclusive days (YYYY-MM-DD); endDate not before startDate. */
  startDate: Type.Optional(Type.Union([Type.Literal(''), IsoDay])),
  endDate: Type.Optional(Type.Union([Type.Literal(''), IsoDay])),
  /**
   * Only the registrations of learners holding more than one live registration on the dispatch
   * (the licence over-count of relaunches with instancing on), whatever the other filters.
   */
  repeatLearners: Type.Optional(Type.Boolean()),
})
export type ReportQuery = Static<typeof ReportQuerySchema>

/** A registration's progress as SCORM Cloud reports it: score 0..1, time in whole seconds. */
export const RegistrationProgressFields = {
  completionStatus: Type.String(),
  successStatus: Type.String(),
  score: Nullable(Type.Number()),
  totalTimeTracked: Type.Integer(),
}

/** docs/product-rules.md §3 completion report row. Units (docs/product-decisions.md D25): score 0..1, time in whole seconds. */
export const ReportRegistrationSchema = Type.Object({
  id: Type.String(),
  learnerFirstName: Type.String(),
  learnerLastName: Type.String(),
  learnerEmail: Type.String(),
  ...RegistrationProgressFields,
  lastAccessDate: Nullable(Type.String()),
})
export type ReportRegistration = Static<typeof ReportRegistrationSchema>

export const ReportResponseSchema = Type.Object({
  dispatch: DispatchSchema,
  registrations: Type.Array(ReportRegistrationSchema),
  pagination: PaginationSchema,
  /** Distinct learners among the filtered registrations, so duplicates eating a cap show. */
  distinctLearners: Type.Integer(),
  /**
   * A learner search matched more rows than are counted exactly (1,000):
   * pagination.totalItems stops there and the screen shows "1,000+"; distinctLearners is not known.
   */
  totalCapped: Type.Boolean(),
})
export type ReportResponse = Static<typeof ReportResponseSchema>

export const RegistrationCountSchema = Type.Object({ databaseCount: Type.Integer() })
