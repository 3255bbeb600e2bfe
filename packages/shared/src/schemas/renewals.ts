import { Type, type Static } from 'typebox'
import { DISPATCH_CAP_MAX } from './dispatch-actions'
import { IsoDaySchema, Nullable, ProviderIdSchema, SearchTermSchema } from './common'

/** The most dispatches one bulk action or one renewal request may name (or match). */
export const BULK_MAX_DISPATCHES = 5000
/** The longest rollover period, in months. */
export const ROLLOVER_MAX_MONTHS = 120

export const RENEWAL_MESSAGES = {
  dateInPast: 'The renewal date must be today or later.',
  expiryBeforeRenewal: 'The new expiry must be on or after the renewal date.',
  capBelowCount: (count: number) =>
    `The new cap is below the current registration count (${count}). Send confirmBelowCount to confirm.`,
  nothingToChange: 'Nothing to change: give a new cap, a new expiry, a counter reset or a rollover.',
  noDispatches: 'Select at least one dispatch.',
  tooMany: `At most ${BULK_MAX_DISPATCHES.toLocaleString('en-US')} dispatches at once.`,
  otherCompany: 'Some of the selected dispatches belong to another company.',
  notFound: 'Some of the selected dispatches do not exist.',
  unknownAction: 'Unknown bulk action.',
  notCancellable: 'Only a scheduled renewal can be cancelled.',
  removedUpstream: 'The dispatch was removed from SCORM Cloud.',
} as const

/** Which dispatches: listed ids, or every dispatch of a company (optionally with the list's filter). */
const SelectionFields = {
  /** When given, every named dispatch must belong to this company. */
  companyId: Type.Optional(ProviderIdSchema),
  dispatchIds: Type.Optional(Type.Array(ProviderIdSchema, { maxItems: BULK_MAX_DISPATCHES + 1 })),
  /** "All N matching this filter" of the dispatch list (instead of dispatchIds). */
  filter: Type.Optional(
    Type.Object({
      search: Type.Optional(SearchTermSchema),
      status: Type.Optional(Type.Union([Type.Literal('enabled'), Type.Literal('disabled')])),
    }),
  ),
}

const RenewalChangeFields = {
  runOn: IsoDaySchema,
  registrationCap: Type.Optional(Type.Integer({ minimum: 0, maximum: DISPATCH_CAP_MAX })),
  expirationDate: Type.Optional(IsoDaySchema),
  resetCount: Type.Optional(Type.Boolean()),
  /** At each expiry from then on: extend by this many months and reset the counter. */
  rolloverMonths: Type.Optional(Type.Integer({ minimum: 1, maximum: ROLLOVER_MAX_MONTHS })),
  /** Required when the new cap is below a dispatch's current registration count. */
  confirmBelowCount: Type.Optional(Type.Boolean()),
}

// One flat object (not an intersection): the server strips properties a schema does not list.
export const ScheduleRenewalBodySchema = Type.Object({ ...SelectionFields, ...RenewalChangeFields })
export type ScheduleRenewalBody = Static<typeof ScheduleRenewalBodySchema>

export const RENEWAL_STATUSES = ['scheduled', 'running', 'done', 'failed', 'cancelled'] as const
export type RenewalStatus = (typeof RENEWAL_STATUSES)[number]

export const RenewalSchema = Type.Object({
  id: Type.String(),
  dispatchId: Type.String(),
  courseTitle: Type.String(),
  companyId: Type.String(),
  runOn: Type.String(),
  registrationCap: Nullable(Type.Integer()),
  expirationDate: Nullable(Type.String()),
  resetCount: Type.Boolean(),
  rolloverMonths: Nullable(Type.Integer()),
  /** `schedule`: a staff member's; `rollover`: made at the dispatch's expiry by its rollover. */
  source: Type.String(),
  status: Type.String(),
  attempts: Type.Integer(),
  lastError: Nullable(Type.String()),
  scheduledBy: Nullable(Type.String()),
  createdAt: Type.String(),
  finishedAt: Nullable(Type.String()),
})
export type Renewal = Static<typeof RenewalSchema>

export const RenewalListSchema = Type.Object({ renewals: Type.Array(RenewalSchema) })
export type RenewalList = Static<typeof RenewalListSchema>

export const ScheduleRenewalResponseSchema = Type.Object({ scheduled: Type.Integer(), ids: Type.Array(Type.String()) })

export const BULK_ACTIONS = ['enable', 'disable', 'setCap', 'setExpiry', 'scheduleRenewal'] as const
export type BulkAction = (typeof BULK_ACTIONS)[number]

export const BulkActionBodySchema = Type.Object({
  ...SelectionFields,
  action: Type.String({ maxLength: 40 }),
  registrationCap: Type.Optional(Type.Integer({ minimum: 0, maximum: DISPATCH_CAP_MAX })),
  /** setExpiry: YYYY-MM-DD; null clears the expiry. */
  expirationDate: Type.Optional(Nullable(IsoDaySchema)),
  confirmBelowCount: Type.Optional(Type.Boolean()),
  renewal: Type.Optional(Type.Object(RenewalChangeFields)),
})
export type BulkActionBody = Static<typeof BulkActionBodySchema>

export const BulkItemSchema = Type.Object({
  dispatchId: Type.String(),
  courseTitle: Type.String(),
  companyName: Type.String(),
  status: Type.String(),
  error: Nullable(Type.String()),
})
export const BulkRunSchema = Type.Object({
  id: Type.String(),
  action: Type.String(),
  status: Type.String(),
  total: Type.Integer(),
  done: Type.Integer(),
  failed: Type.Integer(),
  createdAt: Type.String(),
  finishedAt: Nullable(Type.String()),
  items: Type.Array(BulkItemSchema),
})
export type BulkRun = Static<typeof BulkRunSchema>
