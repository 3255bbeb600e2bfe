import { Type, type Static } from 'typebox'
import { ACTIVITY_ACTIONS, type ActivityAction } from '../activity-actions'
import { LOG_MAX_PAGE_SIZE, LOG_PAGE_SIZE } from '../rules/activity-log'
import { IsoDaySchema as IsoDay, Nullable, PageNumberSchema, SearchTermSchema, UuidSchema } from './common'

const orEmpty = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) =>
  Type.Optional(Type.Union([Type.Literal(''), t]))

/** The filters of docs/product-rules.md §7 GET /api/logs; an empty value means "no filter". */
export const LogFilterSchema = Type.Object({
  /** Inclusive UTC days; endDate not before startDate. */
  startDate: orEmpty(IsoDay),
  endDate: orEmpty(IsoDay),
  userId: orEmpty(UuidSchema),
  action: orEmpty(Type.Unsafe<ActivityAction>({ type: 'string', enum: [...ACTIVITY_ACTIONS] })),
  /** Case-insensitive substring of the details text, IP address, user name or email. */
  searchTerm: Type.Optional(SearchTermSchema),
})
export type LogFilter = Static<typeof LogFilterSchema>

/** One object, not an intersection: Ajv's removeAdditional would strip an allOf's fields. */
export const LogListQuerySchema = Type.Object({
  ...LogFilterSchema.properties,
  page: PageNumberSchema,
  limit: Type.Integer({ minimum: 1, maximum: LOG_MAX_PAGE_SIZE, default: LOG_PAGE_SIZE }),
  /** docs/product-rules.md §7: every matching log at once (bounded: see LOG_COUNT_CAP). */
  getAll: Type.Optional(Type.Boolean()),
})
export type LogListQuery = Static<typeof LogListQuerySchema>

export const LogUserSchema = Type.Object({
  id: Nullable(Type.String()),
  name: Nullable(Type.String()),
  email: Nullable(Type.String()),
})

/** docs/product-rules.md §3 log entry; `user` is null for system rows (no actor kept on the row). */
export const LogEntrySchema = Type.Object({
  id: Type.Integer(),
  createdAt: Type.String(),
  action: Type.String(),
  details: Type.Unknown(),
  ipAddress: Nullable(Type.String()),
  user: Nullable(LogUserSchema),
})
export type LogEntry = Static<typeof LogEntrySchema>

/**
 * docs/product-rules.md §3 logs response. `totalLogsCapped`: more than LOG_COUNT_CAP rows match, and totalLogs
 * (and so totalPages) stop at the cap.
 */
export const LogListResponseSchema = Type.Object({
  logs: Type.Array(LogEntrySchema),
  currentPage: Type.Integer(),
  totalPages: Type.Integer(),
  totalLogs: Type.Integer(),
  totalLogsCapped: Type.Boolean(),
})
export type LogListResponse = Static<typeof LogListResponseSchema>

export const UserActivitySchema = Type.Array(LogEntrySchema)
