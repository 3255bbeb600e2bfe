import { randomUUID } from 'node:crypto'
import { and, count, desc, eq, isNull, type SQL } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { deleteWhere } from '../../db/row-writes'
import { appUser, company, webhookDelivery, webhookEvent, webhookSubscription } from '../../db/schema'
import { companyShownName } from '../../db/columns'
import { ownedBy, selectOwned, type OwnerScope } from '../../db/owned-rows'
import { deliveryQueries } from './outbound-webhooks-delivery.sql'

export interface SubscriptionRow {
  id: string
  url: string
  description: string
  events: string[]
  companyId: string | null
  companyName: string | null
  status: 'active' | 'paused'
  pausedReason: string | null
  createdBy: string | null
  createdAt: Date
  updatedAt: Date
}

export interface NewSubscription {
  id: string
  companyId: string | null
  createdBy: string
  url: string
  description: string
  events: string[]
  secretSealed: string
}

/** A claimed delivery with what its request is made of. */
export interface ClaimedDelivery {
  id: number
  claimToken: string
  attempts: number
  createdAt: Date
  subscriptionId: string
  url: string
  secretSealed: string
  eventId: string
  eventType: string
  eventData: Record<string, unknown>
  eventCreatedAt: Date
}

export interface AttemptResult {
  statusCode: number | null
  durationMs: number
  responseExcerpt: string | null
  error: string | null
}

const columns = {
  id: webhookSubscription.id,
  url: webhookSubscription.url,
  description: webhookSubscription.description,
  events: webhookSubscription.events,
  companyId: webhookSubscription.companyId,
  companyName: companyShownName,
  status: webhookSubscription.status,
  pausedReason: webhookSubscription.pausedReason,
  createdBy: appUser.email,
  createdAt: webhookSubscription.createdAt,
  updatedAt: webhookSubscription.updatedAt,
}

/**
 * Outgoing webhooks: subscriptions, their delivery log, and the outbox the delivery job claims
 * (events are written by the triggers of migration 0040, in the transaction of each change).
 */
export function createOutboundWebhooksRepository(db: DbOrTx) {
  const select = (where: SQL | undefined, tx: DbOrTx) =>
    selectOwned<SubscriptionRow>(tx, webhookSubscription, columns, where)

  return {
    ...deliveryQueries(db),
    list: (scope: OwnerScope, tx: DbOrTx = db) => select(ownedBy(webhookSubscription, scope), tx),

    async find(id: string, scope: OwnerScope, tx: DbOrTx = db): Promise<SubscriptionRow | null> {
      return (await select(and(eq(webhookSubscription.id, id), ownedBy(webhookSubscription, scope)), tx))[0] ?? null
    },

    async secretOf(id: string, tx: DbOrTx = db): Promise<string | null> {
      const [row] = await tx
        .select({ sealed: webhookSubscription.secretSealed })
        .from(webhookSubscription)
        .where(eq(webhookSubscription.id, id))
      return row?.sealed ?? null
    },

    /** Subscriptions of one owner: a company, or the vendor (null). */
    async countOwned(companyId: string | null, tx: DbOrTx = db): Promise<number> {
      const [row] = await tx
        .select({ n: count() })
        .from(webhookSubscription)
        .where(
          companyId === null ? isNull(webhookSubscription.companyId) : eq(webhookSubscription.companyId, companyId),
        )
      return Number(row?.n ?? 0)
    },

    async insert(row: NewSubscription, tx: DbOrTx = db): Promise<void> {
      await tx.insert(webhookSubscription).values(row)
    },

    async update(
      id: string,
      changes: Partial<{ url: string; events: string[]; description: string; status: 'active' | 'paused' }>,
      tx: DbOrTx = db,
    ): Promise<void> {
      const resumed = changes.status === 'active'
      await tx
        .update(webhookSubscription)
        .set({
          ...changes,
          updatedAt: new Date(),
          ...(changes.status === 'paused' ? { pausedReason: 'Paused by a person.' } : {}),
          // Resumed: its failure counts start again.
          ...(resumed ? { pausedReason: null, failingSince: null, finalFailures: 0 } : {}),
        })
        .where(eq(webhookSubscription.id, id))
    },

    async remove(id: string, tx: DbOrTx = db): Promise<boolean> {
      return deleteWhere(tx, webhookSubscription, eq(webhookSubscription.id, id))
    },

    /** The newest deliveries of a subscription, with their event's type. */
    async deliveries(subscriptionId: string, limit: number, tx: DbOrTx = db) {
      return tx
        .select({
          id: webhookDelivery.id,
          eventId: webhookDelivery.eventId,
          eventType: webhookEvent.type,
          status: webhookDelivery.status,
          attempts: webhookDelivery.attempts,
          createdAt: webhookDelivery.createdAt,
          lastAttemptAt: webhookDelivery.lastAttemptAt,
          nextAttemptAt: webhookDelivery.nextAttemptAt,
          statusCode: webhookDelivery.statusCode,
          durationMs: webhookDelivery.durationMs,
          responseExcerpt: webhookDelivery.responseExcerpt,
          error: webhookDelivery.error,
        })
        .from(webhookDelivery)
        .innerJoin(webhookEvent, eq(webhookEvent.id, webhookDelivery.eventId))
        .where(eq(webhookDelivery.subscriptionId, subscriptionId))
        .orderBy(desc(webhookDelivery.id))
        .limit(limit)
    },

    /**
     * "Send again": a new delivery of the same event (same webhook-id, so a receiver that keeps
     * ids sees a repeat), ordered on its own: a manual resend never holds back newer events.
     */
    async resend(subscriptionId: string, deliveryId: number, tx: DbOrTx = db): Promise<number | null> {
      const [old] = await tx
        .select({ eventId: webhookDelivery.eventId })
        .from(webhookDelivery)
        .where(and(eq(webhookDelivery.id, deliveryId), eq(webhookDelivery.subscriptionId, subscriptionId)))
      if (!old) return null
      const [row] = await tx
        .insert(webhookDelivery)
        .values({ subscriptionId, eventId: old.eventId, orderKey: `resend:${randomUUID()}` })
        .returning({ id: webhookDelivery.id })
      return row!.id
    },

    /** An event for one subscription only (the test event), with its delivery. */
    async insertOwnEvent(
      subscriptionId: string,
      event: { type: string; companyId: string | null; data: Record<string, unknown> },
      tx: DbOrTx = db,
    ): Promise<number> {
      const orderKey = `test:${subscriptionId}`
      const [ev] = await tx
        .insert(webhookEvent)
        .values({ ...event, orderKey })
        .returning({ id: webhookEvent.id })
      const [row] = await tx
        .insert(webhookDelivery)
        .values({ subscriptionId, eventId: ev!.id, orderKey })
        .returning({ id: webhookDelivery.id })
      return row!.id
    },

    /** Subscriptions sending to one URL (demo mode's catcher checks signatures with their secrets). */
    async subscriptionsAt(url: string, tx: DbOrTx = db) {
      return tx
        .select({
          id: webhookSubscription.id,
          companyId: webhookSubscription.companyId,
          secretSealed: webhookSubscription.secretSealed,
        })
        .from(webhookSubscription)
        .where(eq(webhookSubscription.url, url))
    },

    /** Demo seeding: the demo client's id. */
    async userIdByEmail(email: string, tx: DbOrTx = db): Promise<string | null> {
      const [row] = await tx.select({ id: appUser.id }).from(appUser).where(eq(appUser.email, email)).limit(1)
      return row?.id ?? null
    },

    /** Demo seeding: the company may use integrations (the API keys setting). */
    async allowCompany(companyId: string, tx: DbOrTx = db): Promise<void> {
      await tx.update(company).set({ apiKeysAllowed: true }).where(eq(company.id, companyId))
    },
  }
}
export type OutboundWebhooksRepository = ReturnType<typeof createOutboundWebhooksRepository>
