import { Type, type Static } from 'typebox'
import { Nullable, OneOf } from './common'
import { EXPORT_FORMATS } from './learners'

/** What a dispatch history row records (docs/product-rules.md, "Licence history"). */
export const HISTORY_KINDS = ['created', 'cap', 'expiry', 'enabled', 'count_reset'] as const
export type HistoryKind = (typeof HISTORY_KINDS)[number]

/** The actor kinds the history shows today; the column is open to more (a scheduled renewal is `system`). */
export const HistoryActorSchema = Type.Object({
  kind: Type.String(),
  id: Nullable(Type.String()),
  label: Type.String(),
  email: Nullable(Type.String()),
})

export const DispatchHistoryEntrySchema = Type.Object({
  id: Type.Integer(),
  occurredAt: Type.String({ format: 'date-time' }),
  kind: OneOf(HISTORY_KINDS),
  /** Text as stored: a cap ("0" = unlimited), an ISO expiry (null = none), "true"/"false", a count. */
  oldValue: Nullable(Type.String()),
  newValue: Nullable(Type.String()),
  countBefore: Nullable(Type.Integer()),
  countAfter: Type.Integer(),
  capBefore: Nullable(Type.Integer()),
  capAfter: Type.Integer(),
  /** Whether the portal made the change or the sync found it upstream. */
  source: OneOf(['portal', 'upstream'] as const),
  actor: HistoryActorSchema,
})
export type DispatchHistoryEntry = Static<typeof DispatchHistoryEntrySchema>

export const HISTORY_PAGE_MAX = 100

/** GET /api/dispatches/{id}/history: newest first; `before` is the last id of the previous page. */
export const DispatchHistoryQuerySchema = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: HISTORY_PAGE_MAX, default: 20 }),
  before: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })),
})
export type DispatchHistoryQuery = Static<typeof DispatchHistoryQuerySchema>

export const DispatchHistoryResponseSchema = Type.Object({
  entries: Type.Array(DispatchHistoryEntrySchema),
  /** The `before` of the next (older) page; null when this page is the last. */
  nextBefore: Nullable(Type.Integer()),
})
export type DispatchHistoryResponse = Static<typeof DispatchHistoryResponseSchema>

export const HistoryExportQuerySchema = Type.Object({ format: OneOf(EXPORT_FORMATS, { default: 'csv' }) })

export const HISTORY_EXPORT_COLUMNS = [
  'Date',
  'Change',
  'Old Value',
  'New Value',
  'Registrations Before',
  'Registrations After',
  'Cap After',
  'Source',
  'By',
  'By Email',
] as const

const KIND_LABELS: Record<HistoryKind, string> = {
  created: 'Dispatch recorded',
  cap: 'Licence cap changed',
  expiry: 'Expiry changed',
  enabled: 'Enabled state changed',
  count_reset: 'Registration counter reset',
}
export const historyKindLabel = (kind: HistoryKind) => KIND_LABELS[kind]

/** A stored value as shown: caps of 0 are unlimited, expiries as yyyy-MM-dd, flags as words. */
export function historyValueText(kind: HistoryKind, value: string | null): string {
  if (kind === 'cap') return value === null ? '' : value === '0' ? 'Unlimited' : value
  if (kind === 'expiry') return value === null ? 'None' : value.slice(0, 10)
  if (kind === 'enabled') return value === null ? '' : value === 'true' ? 'Enabled' : 'Disabled'
  return value ?? ''
}

export const UPSTREAM_SOURCE_TEXT = 'Found upstream by the sync'

/** yyyy-MM: a calendar month of a statement. */
export const MONTH_PATTERN = '^\\d{4}-(0[1-9]|1[0-2])$'
export const STATEMENT_MESSAGES = {
  badPeriod: 'Give month as yyyy-MM (for example 2026-10) or year as yyyy.',
  futurePeriod: 'A statement covers a past or the current month; this one has not started yet.',
} as const

/** GET /api/companies/{id}/statements?month=yyyy-MM | year=yyyy (format for the export). */
export const StatementQuerySchema = Type.Object({
  month: Type.Optional(Type.String({ maxLength: 7 })),
  year: Type.Optional(Type.String({ maxLength: 4 })),
})
export type StatementQuery = Static<typeof StatementQuerySchema>
export const StatementExportQuerySchema = Type.Object({
  ...StatementQuerySchema.properties,
  format: OneOf(EXPORT_FORMATS, { default: 'csv' }),
})
export type StatementExportQuery = Static<typeof StatementExportQuerySchema>

export const StatementLineSchema = Type.Object({
  dispatchId: Type.String(),
  courseTitle: Type.String(),
  registrationsAdded: Type.Integer(),
  learnersLaunched: Type.Integer(),
  completions: Type.Integer(),
  /** As of the period's end: null when unlimited. */
  capAtEnd: Nullable(Type.Integer()),
  countAtEnd: Type.Integer(),
  /** cap minus count at the period's end (never below 0); null when the cap is unlimited. */
  remainingAtEnd: Nullable(Type.Integer()),
})
export type StatementLine = Static<typeof StatementLineSchema>

export const StatementSchema = Type.Object({
  companyId: Type.String(),
  companyName: Type.String(),
  /** yyyy-MM or yyyy. */
  period: Type.String(),
  start: Type.String({ format: 'date-time' }),
  end: Type.String({ format: 'date-time' }),
  lines: Type.Array(StatementLineSchema),
  total: Type.Object({
    registrationsAdded: Type.Integer(),
    /** Distinct learners over the company's dispatches in the period. */
    learnersLaunched: Type.Integer(),
    completions: Type.Integer(),
    /** Over the capped dispatches; the unlimited ones are counted apart. */
    remainingAtEnd: Type.Integer(),
    unlimitedDispatches: Type.Integer(),
  }),
})
export type Statement = Static<typeof StatementSchema>

export const STATEMENT_EXPORT_COLUMNS = [
  'Course',
  'Dispatch',
  'Registrations Added',
  'Learners Launched',
  'Completions',
  'Cap at End',
  'Registrations at End',
  'Licences Remaining',
] as const
