import { Type, type Static } from 'typebox'
import {
  IsoDaySchema as IsoDay,
  Nullable,
  OneOf,
  PageNumberSchema,
  PaginationSchema,
  SearchTermSchema,
  SortOrderSchema,
} from './common'
import { RegistrationProgressFields } from './reports'

/** The export formats of the completion report and the learner list. */
export const EXPORT_FORMATS = ['csv', 'xlsx'] as const
export type ExportFormat = (typeof EXPORT_FORMATS)[number]

const StatusFilter = Type.Optional(
  Type.Union([Type.Literal(''), Type.Literal('completed'), Type.Literal('incomplete'), Type.Literal('not attempted')]),
)

/** GET /api/reports/dispatch/{id}/export: the completion report's filters (no page) and the format. */
export const ReportExportQuerySchema = Type.Object({
  format: OneOf(EXPORT_FORMATS, { default: 'csv' }),
  search: Type.Optional(SearchTermSchema),
  status: StatusFilter,
  startDate: Type.Optional(Type.Union([Type.Literal(''), IsoDay])),
  endDate: Type.Optional(Type.Union([Type.Literal(''), IsoDay])),
  repeatLearners: Type.Optional(Type.Boolean()),
})
export type ReportExportQuery = Static<typeof ReportExportQuerySchema>

/** The completion report export's columns (score in percent, time in seconds and formatted). */
export const REPORT_EXPORT_COLUMNS = [
  'First Name',
  'Last Name',
  'Email',
  'Completion Status',
  'Success Status',
  'Score (%)',
  'Time Tracked (s)',
  'Time Tracked',
  'First Access',
  'Last Access',
  'Completion Date',
] as const

/** /learners page sizes, default 50. */
export const LEARNER_PAGE_SIZES = [25, 50, 100] as const
export const LEARNER_DEFAULT_PAGE_SIZE = 50
export const LEARNER_SORTS = [
  'name',
  'email',
  'courses',
  'completed',
  'inProgress',
  'notStarted',
  'averageScore',
  'totalTime',
  'lastAccess',
] as const
export type LearnerSort = (typeof LEARNER_SORTS)[number]

const learnerFilters = {
  /** Staff: the company whose learners are listed (nothing without one). Clients: ignored (their own). */
  companyId: Type.Optional(Type.String({ maxLength: 200 })),
  /** Name or e-mail. */
  search: Type.Optional(SearchTermSchema),
  /** Learners registered for this course. */
  courseId: Type.Optional(Type.String({ maxLength: 200 })),
  /** Learners with a registration of this completion status (of the course, with courseId). */
  status: StatusFilter,
  sort: OneOf(LEARNER_SORTS, { default: 'name' }),
  order: SortOrderSchema('asc'),
}

export const LearnerListQuerySchema = Type.Object({
  page: PageNumberSchema,
  pageSize: OneOf(LEARNER_PAGE_SIZES, { default: LEARNER_DEFAULT_PAGE_SIZE }),
  ...learnerFilters,
})
export type LearnerListQuery = Static<typeof LearnerListQuerySchema>

export const LearnerExportQuerySchema = Type.Object({
  format: OneOf(EXPORT_FORMATS, { default: 'csv' }),
  ...learnerFilters,
})
export type LearnerExportQuery = Static<typeof LearnerExportQuerySchema>

/** One learner (by e-mail, else learner id) across the company's dispatches. Score 0..1, time in seconds. */
export const LearnerSchema = Type.Object({
  email: Type.String(),
  learnerId: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  courses: Type.Integer(),
  completed: Type.Integer(),
  inProgress: Type.Integer(),
  notStarted: Type.Integer(),
  averageScore: Nullable(Type.Number()),
  totalTime: Type.Integer(),
  lastAccessDate: Nullable(Type.String()),
})
export type Learner = Static<typeof LearnerSchema>

export const LearnerCourseSchema = Type.Object({ id: Type.String(), title: Type.String() })

export const LearnerListResponseSchema = Type.Object({
  learners: Type.Array(LearnerSchema),
  pagination: PaginationSchema,
  /** A search matched more learners than are counted exactly (1,000): the total stops there. */
  totalCapped: Type.Boolean(),
  /** The company's courses (the course filter's choices). */
  courses: Type.Array(LearnerCourseSchema),
  /**
   * The company's learner figures are being built by a first full sync (they are written in one
   * pass when its registration listing ends): until then the list may miss learners.
   */
  building: Type.Boolean(),
})
export type LearnerListResponse = Static<typeof LearnerListResponseSchema>

export const LEARNER_EXPORT_COLUMNS = [
  'First Name',
  'Last Name',
  'Email',
  'Courses Assigned',
  'Completed',
  'In Progress',
  'Not Started',
  'Average Score (%)',
  'Total Time (s)',
  'Total Time',
  'Last Access',
] as const

export const LearnerParamsSchema = Type.Object({ email: Type.String({ minLength: 1, maxLength: 320 }) })
export const LearnerRegistrationsQuerySchema = Type.Object({ companyId: learnerFilters.companyId })
export type LearnerRegistrationsQuery = Static<typeof LearnerRegistrationsQuerySchema>

export const LearnerRegistrationSchema = Type.Object({
  id: Type.String(),
  dispatchId: Type.String(),
  courseId: Type.String(),
  courseTitle: Type.String(),
  ...RegistrationProgressFields,
  firstAccessDate: Nullable(Type.String()),
  lastAccessDate: Nullable(Type.String()),
  completedDate: Nullable(Type.String()),
})
export type LearnerRegistration = Static<typeof LearnerRegistrationSchema>

export const LearnerRegistrationsResponseSchema = Type.Object({
  learner: Nullable(Type.Object({ email: Type.String(), firstName: Type.String(), lastName: Type.String() })),
  registrations: Type.Array(LearnerRegistrationSchema),
})
export type LearnerRegistrationsResponse = Static<typeof LearnerRegistrationsResponseSchema>

/** At most this many registrations of one learner are listed (newest access first). */
export const LEARNER_REGISTRATIONS_LIMIT = 500
