import { Type, type Static } from 'typebox'
import { Nullable, OneOf, PaginationSchema, SearchTermSchema, SortOrderSchema } from './common'
import { DISPATCH_CAP_MAX, DISPATCH_NOTES_MAX, DISPATCH_TAG_MAX, DISPATCH_TAGS_MAX } from './dispatch-actions'

/** docs/product-rules.md §9: page sizes of the dispatch list. */
export const DISPATCH_PAGE_SIZES = [10, 25, 50, 100, 200] as const
export const DISPATCH_DEFAULT_PAGE_SIZE = 50
export const DISPATCH_SORTS = ['client', 'course', 'status', 'registrations'] as const
export type DispatchSort = (typeof DISPATCH_SORTS)[number]
export const DISPATCH_STATUS_FILTERS = ['all', 'enabled', 'disabled'] as const
export const SORT_ORDERS = ['asc', 'desc'] as const

/** docs/product-rules.md §9: the dispatch list's defaults, read by the API schema and the web's URL state alike. */
export const DISPATCH_LIST_DEFAULTS = {
  page: 1,
  pageSize: DISPATCH_DEFAULT_PAGE_SIZE,
  search: '',
  status: 'all',
  sort: 'client',
  order: 'asc',
} as const satisfies {
  page: number
  pageSize: (typeof DISPATCH_PAGE_SIZES)[number]
  search: string
  status: (typeof DISPATCH_STATUS_FILTERS)[number]
  sort: DispatchSort
  order: (typeof SORT_ORDERS)[number]
}

export const DispatchListQuerySchema = Type.Object({
  page: Type.Integer({ minimum: 1, maximum: 1_000_000, default: DISPATCH_LIST_DEFAULTS.page }),
  pageSize: OneOf(DISPATCH_PAGE_SIZES, { default: DISPATCH_LIST_DEFAULTS.pageSize }),
  search: Type.Optional(SearchTermSchema),
  status: Type.Union([Type.Literal('all'), Type.Literal('enabled'), Type.Literal('disabled')], {
    default: DISPATCH_LIST_DEFAULTS.status,
  }),
  sort: Type.Union(
    [Type.Literal('client'), Type.Literal('course'), Type.Literal('status'), Type.Literal('registrations')],
    { default: DISPATCH_LIST_DEFAULTS.sort },
  ),
  order: SortOrderSchema(DISPATCH_LIST_DEFAULTS.order),
})
export type DispatchListQuery = Static<typeof DispatchListQuerySchema>
// The lists above and the schema's unions name the same values (a compile-time check).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
export const DISPATCH_LIST_VALUES_MATCH: [
  Same<DispatchListQuery['status'], (typeof DISPATCH_STATUS_FILTERS)[number]>,
  Same<DispatchListQuery['sort'], DispatchSort>,
  Same<DispatchListQuery['order'], (typeof SORT_ORDERS)[number]>,
] = [true, true, true]

/** A dispatch's company, state and registrations, as the dispatch list and a course's details show them. */
export const DispatchFiguresFields = {
  destinationId: Type.String(),
  destinationName: Type.String(),
  enabled: Type.Boolean(),
  registrationCount: Type.Integer(),
  /** 0 means unlimited. */
  registrationCap: Type.Integer(),
  created: Nullable(Type.String()),
}

/**
 * docs/product-rules.md §3 Dispatch. `tags` and `notes` are present only for admin and internal, `appSource`
 * only for admin (docs/product-rules.md §6).
 */
export const DispatchSchema = Type.Object({
  id: Type.String(),
  courseId: Type.String(),
  courseTitle: Type.String(),
  ...DispatchFiguresFields,
  updated: Nullable(Type.String()),
  expirationDate: Nullable(Type.String()),
  appSource: Type.Optional(Nullable(Type.String())),
  tags: Type.Optional(Type.Array(Type.String())),
  notes: Type.Optional(Type.String()),
  /** The last registration counter reset (SCORM Cloud `registrationResetDate`); null = never. */
  registrationResetDate: Type.Optional(Nullable(Type.String())),
})
export type Dispatch = Static<typeof DispatchSchema>

/**
 * PUT /api/dispatches/{id} answered 202: SCORM Cloud holds the edit, the portal's
 * copy does not yet; the dispatch as edited and a message saying so.
 */
export const DispatchMirrorBehindSchema = Type.Intersect([DispatchSchema, Type.Object({ message: Type.String() })])
export type DispatchMirrorBehind = Static<typeof DispatchMirrorBehindSchema>

/** The four summary cards (docs/product-rules.md §2), for the whole filtered set, computed in SQL. */
export const DispatchSummarySchema = Type.Object({
  totalDispatches: Type.Integer(),
  activeDispatches: Type.Integer(),
  /** Sum of the dispatches' registration counters (the provider's, resettable: "historical"). */
  registrations: Type.Integer(),
  /** Registrations of dispatches with a cap, and the sum of those caps (docs/product-rules.md §9). */
  cappedRegistrations: Type.Integer(),
  cappedCapacity: Type.Integer(),
  /** Rounded cappedRegistrations / cappedCapacity × 100; null when no dispatch has a cap. */
  usagePercent: Nullable(Type.Integer()),
  /** Enabled dispatches without a cap ("Unlimited active licenses"). */
  unlimitedActive: Type.Integer(),
  /** Staff only: learner registrations the mirror holds for these dispatches ("active"). */
  activeRegistrations: Type.Optional(Type.Integer()),
})
export type DispatchSummary = Static<typeof DispatchSummarySchema>

export const DispatchListResponseSchema = Type.Object({
  dispatches: Type.Array(DispatchSchema),
  pagination: PaginationSchema,
  summary: DispatchSummarySchema,
})
export type DispatchListResponse = Static<typeof DispatchListResponseSchema>

/** Admin dispatch controls (docs/product-decisions.md D10): every field optional; only given ones change. */
export const UpdateDispatchBodySchema = Type.Object({
  enabled: Type.Optional(Type.Boolean()),
  registrationCap: Type.Optional(Type.Integer({ minimum: 0, maximum: DISPATCH_CAP_MAX })),
  /** YYYY-MM-DD or an ISO date-time; null clears the expiry. */
  expirationDate: Type.Optional(Nullable(Type.String({ maxLength: 40 }))),
  notes: Type.Optional(Type.String({ maxLength: DISPATCH_NOTES_MAX })),
  tags: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: DISPATCH_TAG_MAX }), { maxItems: DISPATCH_TAGS_MAX }),
  ),
})
export type UpdateDispatchBody = Static<typeof UpdateDispatchBodySchema>

export const DestinationSchema = Type.Object({ id: Type.String(), name: Type.String() })
export const DestinationListSchema = Type.Array(DestinationSchema)
export type Destination = Static<typeof DestinationSchema>
