import { Type, type Static } from 'typebox'
import { Nullable, OneOf, PaginationSchema } from './common'

/**
 * Alerts, notifications, the mail outbox and the Profile page's preferences.
 * Every string, number and array is bounded (bad-input suite).
 */

export const ALERT_KINDS = ['usage', 'expiry', 'disabled', 'removed'] as const
export type AlertKind = (typeof ALERT_KINDS)[number]

/** Defaults (the issue): 80, 90, 100 % of the cap; 30 and 7 days before the expiry, and the day. */
export const DEFAULT_USAGE_THRESHOLDS = [80, 90, 100] as const
export const DEFAULT_EXPIRY_DAYS = [30, 7, 0] as const
export const MAX_THRESHOLDS = 10
/** Bounds of one value: percent of the cap, and days before the expiry (0 = the day itself). */
export const USAGE_THRESHOLD_RANGE = { min: 1, max: 1000 } as const
export const EXPIRY_DAYS_RANGE = { min: 0, max: 365 } as const

/** A list of distinct whole numbers within `range`, at most MAX_THRESHOLDS of them (may be empty). */
const ThresholdList = (range: { min: number; max: number }) =>
  Type.Array(Type.Integer({ minimum: range.min, maximum: range.max }), {
    minItems: 0,
    maxItems: MAX_THRESHOLDS,
    uniqueItems: true,
  })

export const AlertSettingsSchema = Type.Object({
  usageThresholds: ThresholdList(USAGE_THRESHOLD_RANGE),
  expiryDays: ThresholdList(EXPIRY_DAYS_RANGE),
})
export type AlertSettings = Static<typeof AlertSettingsSchema>

/** A company's settings: its override, or the global values (`overridden` false). */
export const CompanyAlertSettingsSchema = Type.Object({
  usageThresholds: AlertSettingsSchema.properties.usageThresholds,
  expiryDays: AlertSettingsSchema.properties.expiryDays,
  overridden: Type.Boolean(),
})
export type CompanyAlertSettings = Static<typeof CompanyAlertSettingsSchema>

export const NotificationSchema = Type.Object({
  id: Type.Integer(),
  kind: OneOf(ALERT_KINDS),
  /** Percent of the cap (usage), days before the expiry (expiry), 0 otherwise. */
  level: Type.Integer(),
  dispatchId: Type.String(),
  companyId: Type.String(),
  companyName: Type.String(),
  courseTitle: Type.String(),
  registrationCount: Type.Integer(),
  registrationCap: Type.Integer(),
  expirationDate: Nullable(Type.String()),
  /** One line for the panel and the mail subject. */
  message: Type.String(),
  createdAt: Type.String(),
  read: Type.Boolean(),
})
export type Notification = Static<typeof NotificationSchema>

export const NotificationListQuerySchema = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  /** Older than this id (the next page). */
  before: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })),
})
export type NotificationListQuery = Static<typeof NotificationListQuerySchema>

export const NotificationListSchema = Type.Object({
  items: Type.Array(NotificationSchema),
  /** Unread alerts the caller may see, counted up to 1000. */
  unreadCount: Type.Integer(),
  /** Pass as `before` for the next page; null at the end. */
  nextBefore: Nullable(Type.Integer()),
})
export type NotificationList = Static<typeof NotificationListSchema>

export const NotificationIdParamsSchema = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
})

export const UnreadCountSchema = Type.Object({ unreadCount: Type.Integer() })

/** Dashboard badges for the dispatches of one page. */
export const DispatchAlertFlagsQuerySchema = Type.Object({
  ids: Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: 200 }),
})
export const DispatchAlertFlagsSchema = Type.Object({
  /** Dispatch ids at or past NEAR_CAP_PERCENT of their cap ("Near cap"), or with a live expiry crossing ("Expires soon"). */
  nearCap: Type.Array(Type.String()),
  expiresSoon: Type.Array(Type.String()),
})
export type DispatchAlertFlags = Static<typeof DispatchAlertFlagsSchema>

export const REPORT_FREQUENCIES = ['off', 'weekly', 'monthly'] as const
export type ReportFrequency = (typeof REPORT_FREQUENCIES)[number]

export const PreferencesSchema = Type.Object({
  alertMails: Type.Boolean(),
  weeklyDigest: Type.Boolean(),
  /** An IANA time zone name, e.g. Europe/Paris. */
  timeZone: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_+\\-/]+$' }),
  reportFrequency: OneOf(REPORT_FREQUENCIES),
  /** The hour (0-23, in the time zone) the digest and the report are sent. */
  reportHour: Type.Integer({ minimum: 0, maximum: 23 }),
  /**
   * A client user's opt-in to the monthly usage statement mail (account managers always get
   * theirs). Optional in a save: left out, the saved choice stays.
   */
  statementMails: Type.Optional(Type.Boolean()),
})
export type Preferences = Static<typeof PreferencesSchema>

export const OUTBOX_STATUSES = ['pending', 'sending', 'sent', 'failed', 'uncertain'] as const
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number]

export const OutboxQuerySchema = Type.Object({
  page: Type.Integer({ minimum: 1, maximum: 100_000, default: 1 }),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 25 }),
  status: Type.Optional(OneOf(OUTBOX_STATUSES)),
})
export type OutboxQuery = Static<typeof OutboxQuerySchema>

export const OutboxMailSchema = Type.Object({
  id: Type.Integer(),
  kind: Type.String(),
  to: Type.String(),
  subject: Type.String(),
  /** The plain-text body: the screen shows it as text, never as HTML. */
  textBody: Type.String(),
  status: OneOf(OUTBOX_STATUSES),
  attempts: Type.Integer(),
  lastError: Nullable(Type.String()),
  attachments: Type.Array(Type.String()),
  createdAt: Type.String(),
  sentAt: Nullable(Type.String()),
  nextAttemptAt: Nullable(Type.String()),
})
export type OutboxMail = Static<typeof OutboxMailSchema>

export const OutboxPageSchema = Type.Object({
  items: Type.Array(OutboxMailSchema),
  ...PaginationSchema.properties,
  /** False without SMTP_URL: mails stay here (the demo). */
  smtpConfigured: Type.Boolean(),
})
export type OutboxPage = Static<typeof OutboxPageSchema>
