import { index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core'
import { companyRef, userRef } from './users'
import { claimable, createdAt, identityId, timestamps, tz, uuidId } from './columns'

/**
 * Outgoing webhook subscriptions (migration 0040): a company's, or the vendor's (no company).
 * The signing secret is sealed with the deployment key; the triggers of 0040 fan events out.
 */
export const webhookSubscription = pgTable(
  'webhook_subscription',
  {
    id: uuidId(),
    companyId: companyRef('cascade'),
    createdBy: userRef('created_by', 'set null'),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    events: jsonb('events').$type<string[]>().notNull(),
    secretSealed: text('secret_sealed').notNull(),
    status: text('status').$type<'active' | 'paused'>().notNull().default('active'),
    pausedReason: text('paused_reason'),
    failingSince: tz('failing_since'),
    finalFailures: integer('final_failures').notNull().default(0),
    ...timestamps(),
  },
  (t) => [index('webhook_subscription_company_id_idx').on(t.companyId)],
)

/** The outbox: one event, written in the transaction of the change it reports. */
export const webhookEvent = pgTable('webhook_event', {
  id: uuidId(),
  type: text('type').notNull(),
  companyId: text('company_id'),
  orderKey: text('order_key').notNull(),
  data: jsonb('data').$type<Record<string, unknown>>().notNull(),
  createdAt: createdAt(),
})

/** One event to one subscription: its state, attempts and last answer (the delivery log). */
export const webhookDelivery = pgTable('webhook_delivery', {
  id: identityId(),
  subscriptionId: uuid('subscription_id')
    .notNull()
    .references(() => webhookSubscription.id, { onDelete: 'cascade' }),
  eventId: uuid('event_id')
    .notNull()
    .references(() => webhookEvent.id, { onDelete: 'cascade' }),
  orderKey: text('order_key').notNull(),
  status: text('status').$type<'pending' | 'sending' | 'succeeded' | 'failed'>().notNull().default('pending'),
  ...claimable(),
  lastAttemptAt: tz('last_attempt_at'),
  statusCode: integer('status_code'),
  durationMs: integer('duration_ms'),
  responseExcerpt: text('response_excerpt'),
  error: text('error'),
  createdAt: createdAt(),
  completedAt: tz('completed_at'),
})
