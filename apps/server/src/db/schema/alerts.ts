import { sql } from 'drizzle-orm'
import {
  bigint,
  boolean,
  check,
  customType,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core'
import { companyRef, userRef } from './users'
import { claimable, createdAt, identityId, tz, updatedAt } from './columns'

const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' })

/** The global thresholds (one row, id 1; migration 0013 inserts it). */
export const alertSettings = pgTable(
  'alert_settings',
  {
    id: integer('id').primaryKey().default(1),
    /** Percent of the cap (registration_count against registration_cap, as the dashboard shows). */
    usageThresholds: integer('usage_thresholds')
      .array()
      .notNull()
      .default(sql`'{80,90,100}'`),
    /** Days before the expiry date; 0 is the day itself. */
    expiryDays: integer('expiry_days')
      .array()
      .notNull()
      .default(sql`'{30,7,0}'`),
    updatedAt: updatedAt(),
  },
  (t) => [check('alert_settings_id_check', sql`${t.id} = 1`)],
)

/** A company's override of both lists (admin, company detail screen). */
export const companyAlertSettings = pgTable('company_alert_settings', {
  companyId: companyRef('cascade').primaryKey(),
  usageThresholds: integer('usage_thresholds').array().notNull(),
  expiryDays: integer('expiry_days').array().notNull(),
  updatedAt: updatedAt(),
})

/**
 * A crossing that has raised its alert. Inserted (ON CONFLICT DO NOTHING) when the crossing is
 * first seen, deleted when it no longer holds: the next crossing raises a new alert.
 */
export const alertState = pgTable(
  'alert_state',
  {
    dispatchId: text('dispatch_id').notNull(),
    /** usage | expiry */
    kind: text('kind').notNull(),
    level: integer('level').notNull(),
    raisedAt: tz('raised_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'alert_state_pkey', columns: [t.dispatchId, t.kind, t.level] })],
)

/** The enabled / removed flags the last evaluation saw per dispatch (a change raises an alert). */
export const alertWatch = pgTable('alert_watch', {
  dispatchId: text('dispatch_id').primaryKey(),
  enabled: boolean('enabled').notNull(),
  removed: boolean('removed').notNull(),
})

/** One raised alert, with the figures it was raised on (kept: the dispatch changes later). */
export const alert = pgTable(
  'alert',
  {
    id: identityId(),
    kind: text('kind').notNull(),
    level: integer('level').notNull(),
    dispatchId: text('dispatch_id').notNull(),
    companyId: text('company_id').notNull(),
    companyName: text('company_name').notNull(),
    courseTitle: text('course_title').notNull(),
    registrationCount: integer('registration_count').notNull(),
    registrationCap: integer('registration_cap').notNull(),
    expirationDate: tz('expiration_date'),
    createdAt: createdAt(),
  },
  (t) => [
    index('alert_company_idx').on(t.companyId, t.id.desc()),
    check('alert_kind_check', sql`${t.kind} in ('usage', 'expiry', 'disabled', 'removed')`),
  ],
)

/** Alerts a user marked read one by one (above the user's read-all mark). */
export const alertRead = pgTable(
  'alert_read',
  {
    userId: userRef('user_id', 'cascade').notNull(),
    alertId: bigint('alert_id', { mode: 'number' })
      .notNull()
      .references(() => alert.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ name: 'alert_read_pkey', columns: [t.userId, t.alertId] })],
)

/** Read all: every alert up to this id counts as read for the user. */
export const notificationCursor = pgTable('notification_cursor', {
  userId: userRef('user_id', 'cascade').primaryKey(),
  readThrough: bigint('read_through', { mode: 'number' }).notNull().default(0),
})

/** The Profile page's settings; a user without a row has the defaults. */
export const userPreference = pgTable(
  'user_preference',
  {
    userId: userRef('user_id', 'cascade').primaryKey(),
    /** null: the role's default (staff on, clients off: a client opts in). */
    alertMails: boolean('alert_mails'),
    weeklyDigest: boolean('weekly_digest').notNull().default(false),
    timeZone: text('time_zone').notNull().default('UTC'),
    reportFrequency: text('report_frequency').notNull().default('off'),
    reportHour: integer('report_hour').notNull().default(8),
    /** A client user's opt-in to the monthly usage statement mail (migration 0036). */
    statementMails: boolean('statement_mails').notNull().default(false),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('user_preference_scheduled_idx')
      .on(t.userId)
      .where(sql`${t.weeklyDigest} or ${t.reportFrequency} <> 'off'`),
    check('user_preference_report_frequency_check', sql`${t.reportFrequency} in ('off', 'weekly', 'monthly')`),
    check('user_preference_report_hour_check', sql`${t.reportHour} between 0 and 23`),
  ],
)

/** The durable outbox: written in the transaction that decides the mail; the worker sends it. */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: identityId(),
    /** alert:{alertId}:{userId}, digest:{userId}:{period}, report:{userId}:{period}: one mail each. */
    idempotencyKey: text('idempotency_key').notNull(),
    kind: text('kind').notNull(),
    userId: userRef('user_id', 'set null'),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body').notNull(),
    /**
     * pending | sending | sent | failed (gave up) | uncertain (the process stopped during this
     * mail's handover to the SMTP server, so it may have been delivered: never resent)
     */
    status: text('status').notNull().default('pending'),
    ...claimable(),
    /**
     * Set, in its own committed statement, just before the worker hands this claim's mail to the
     * SMTP server: a claim abandoned without it was never tried and is sent again.
     */
    handoverStartedAt: tz('handover_started_at'),
    lastError: text('last_error'),
    createdAt: createdAt(),
    sentAt: tz('sent_at'),
  },
  (t) => [
    uniqueIndex('mail_outbox_idempotency_key').on(t.idempotencyKey),
    index('mail_outbox_due_idx')
      .on(t.nextAttemptAt, t.id)
      .where(sql`${t.status} = 'pending'`),
    index('mail_outbox_sending_idx')
      .on(t.lockedUntil)
      .where(sql`${t.status} = 'sending'`),
    check('mail_outbox_kind_check', sql`${t.kind} in ('alert', 'digest', 'report', 'security', 'renewal')`),
    check('mail_outbox_status_check', sql`${t.status} in ('pending', 'sending', 'sent', 'failed', 'uncertain')`),
  ],
)

export const mailAttachment = pgTable(
  'mail_attachment',
  {
    mailId: bigint('mail_id', { mode: 'number' })
      .notNull()
      .references(() => mailOutbox.id, { onDelete: 'cascade' }),
    filename: text('filename').notNull(),
    contentType: text('content_type').notNull(),
    content: bytea('content').notNull(),
  },
  (t) => [primaryKey({ name: 'mail_attachment_pkey', columns: [t.mailId, t.filename] })],
)

/** A scheduled mail (digest, report) claimed for a user's period: once per period across processes. */
export const scheduledMail = pgTable(
  'scheduled_mail',
  {
    userId: userRef('user_id', 'cascade').notNull(),
    kind: text('kind').notNull(),
    period: text('period').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ name: 'scheduled_mail_pkey', columns: [t.userId, t.kind, t.period] })],
)
