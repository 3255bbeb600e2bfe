import { randomUUID } from 'node:crypto'
import { and, count, desc, eq, isNull, sql, type SQL } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { appUser, company, webhookDelivery, webhookEvent, webhookSubscription } from '../../db/schema'
import { companyShownName } from '../../db/columns'
import { rowsOf } from '../../db/statement'

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

/** Which subscriptions a caller sees: a company's only (a client), or all (an admin). */
export interface OwnerScope {
  companyId?: string
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

const ownedBy = (scope: OwnerScope): SQL | undefined =>
  scope.companyId === undefined ? undefined : eq(webhookSubscription.companyId, scope.companyId)

const date = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)))

/**
 * Outgoing webhooks: subscriptions, their delivery log, and the outbox the delivery job claims
 * (events are written by the triggers of migration 0040, in the transaction of each change).
 */
export function createOutboundWebhooksRepository(db: DbOrTx) {
  async function select(where: SQL | undefined, tx: DbOrTx): Promise<SubscriptionRow[]> {
    return tx
      .select(columns)
      .from(webhookSubscription)
      .leftJoin(appUser, eq(appUser.id, webhookSubscription.createdBy))
      .leftJoin(company, eq(company.id, webhookSubscription.companyId))
      .where(where)
      .orderBy(desc(webhookSubscription.createdAt), webhookSubscription.id)
  }

  return {
    list: (scope: OwnerScope, tx: DbOrTx = db) => select(ownedBy(scope), tx),

    async find(id: string, scope: OwnerScope, tx: DbOrTx = db): Promise<SubscriptionRow | null> {
      return (await select(and(eq(webhookSubscription.id, id), ownedBy(scope)), tx))[0] ?? null
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
      const rows = await tx
        .delete(webhookSubscription)
        .where(eq(webhookSubscription.id, id))
        .returning({ id: webhookSubscription.id })
      return rows.length > 0
    },

    /** Whether an admin allows the company's users integrations (the API keys setting); null: no company. */
    async companyAllows(companyId: string, tx: DbOrTx = db): Promise<boolean | null> {
      const [row] = await tx
        .select({ allowed: company.apiKeysAllowed })
        .from(company)
        .where(eq(company.id, companyId))
        .limit(1)
      return row ? row.allowed : null
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

    /** A delivery left `sending` past its lease (its worker stopped): pending again, so sent again. */
    async sweep(now: Date, tx: DbOrTx = db): Promise<void> {
      await tx.execute(sql`
        update webhook_delivery set status = 'pending', claim_token = null, locked_until = null
        where status = 'sending' and locked_until < ${now.toISOString()}::timestamptz`)
    },

    /**
     * Claims due deliveries of active subscriptions (FOR UPDATE SKIP LOCKED: each worker its
     * own). A delivery waits while an earlier one of its subscription and order key (the
     * dispatch) is pending or being sent, so one dispatch's events arrive in order.
     */
    async claim(
      { now, limit, leaseMs }: { now: Date; limit: number; leaseMs: number },
      tx: DbOrTx = db,
    ): Promise<ClaimedDelivery[]> {
      const token = randomUUID()
      const lease = new Date(now.getTime() + leaseMs)
      const claimed = rowsOf<{ id: string }>(
        await tx.execute(sql`
        update webhook_delivery w set status = 'sending', claim_token = ${token}::uuid,
          locked_until = ${lease.toISOString()}::timestamptz
        where w.id in (
          select d.id from webhook_delivery d
          join webhook_subscription s on s.id = d.subscription_id and s.status = 'active'
          where d.status = 'pending'
            and (s.company_id is null
              or exists (select 1 from company c where c.id = s.company_id and c.api_keys_allowed))
            and d.next_attempt_at < ${now.toISOString()}::timestamptz + interval '1 millisecond'
            and not exists (
              select 1 from webhook_delivery e
              where e.subscription_id = d.subscription_id and e.order_key = d.order_key
                and e.id < d.id and e.status in ('pending', 'sending'))
          order by d.id
          limit ${limit}
          for update of d skip locked)
        returning w.id::text as id`),
      )
      if (claimed.length === 0) return []
      const rows = rowsOf<Record<string, unknown>>(
        await tx.execute(sql`
        select d.id::text as id, d.attempts, d.created_at, s.id as subscription_id, s.url, s.secret_sealed,
          e.id as event_id, e.type, e.data, e.created_at as event_created_at
        from webhook_delivery d
        join webhook_subscription s on s.id = d.subscription_id
        join webhook_event e on e.id = d.event_id
        where d.claim_token = ${token}::uuid
        order by d.id`),
      )
      return rows.map((r) => ({
        id: Number(r.id),
        claimToken: token,
        attempts: Number(r.attempts),
        createdAt: date(r.created_at),
        subscriptionId: String(r.subscription_id),
        url: String(r.url),
        secretSealed: String(r.secret_sealed),
        eventId: String(r.event_id),
        eventType: String(r.type),
        eventData: (typeof r.data === 'string' ? JSON.parse(r.data) : r.data) as Record<string, unknown>,
        eventCreatedAt: date(r.event_created_at),
      }))
    },

    /**
     * One attempt's outcome, by the claim's token: succeeded, pending again at `retryAt`, or
     * finally failed (retryAt null). False when the claim was lost (its lease ran out).
     */
    async recordAttempt(
      d: ClaimedDelivery,
      result: AttemptResult & { outcome: 'succeeded' | 'retry' | 'failed'; at: Date; retryAt: Date | null },
      tx: DbOrTx = db,
    ): Promise<boolean> {
      const rows = await tx
        .update(webhookDelivery)
        .set({
          status: result.outcome === 'retry' ? 'pending' : result.outcome,
          attempts: sql`${webhookDelivery.attempts} + 1`,
          lastAttemptAt: result.at,
          statusCode: result.statusCode,
          durationMs: result.durationMs,
          responseExcerpt: result.responseExcerpt,
          error: result.error,
          claimToken: null,
          lockedUntil: null,
          ...(result.retryAt ? { nextAttemptAt: result.retryAt } : {}),
          ...(result.outcome === 'retry' ? {} : { completedAt: result.at }),
        })
        .where(and(eq(webhookDelivery.id, d.id), eq(webhookDelivery.claimToken, d.claimToken)))
        .returning({ id: webhookDelivery.id })
      return rows.length > 0
    },

    /** A success: the subscription's failure counts start again. */
    async noteSuccess(subscriptionId: string, tx: DbOrTx = db): Promise<void> {
      await tx
        .update(webhookSubscription)
        .set({ failingSince: null, finalFailures: 0 })
        .where(eq(webhookSubscription.id, subscriptionId))
    },

    /** A failed attempt (final or not): since when it fails, and its final failures in a row. */
    async noteFailure(
      subscriptionId: string,
      at: Date,
      final: boolean,
      tx: DbOrTx = db,
    ): Promise<{ failingSince: Date; finalFailures: number; status: string } | null> {
      const [row] = await tx
        .update(webhookSubscription)
        .set({
          failingSince: sql`coalesce(${webhookSubscription.failingSince}, ${at.toISOString()}::timestamptz)`,
          ...(final ? { finalFailures: sql`${webhookSubscription.finalFailures} + 1` } : {}),
        })
        .where(eq(webhookSubscription.id, subscriptionId))
        .returning({
          failingSince: webhookSubscription.failingSince,
          finalFailures: webhookSubscription.finalFailures,
          status: webhookSubscription.status,
        })
      return row ? { failingSince: row.failingSince!, finalFailures: row.finalFailures, status: row.status } : null
    },

    /** Paused by the delivery; the owner (its creator) to tell, if still there. */
    async pauseForFailures(
      subscriptionId: string,
      reason: string,
      tx: DbOrTx = db,
    ): Promise<{ url: string; companyId: string | null; ownerId: string | null; ownerEmail: string | null } | null> {
      const [row] = await tx
        .update(webhookSubscription)
        .set({ status: 'paused', pausedReason: reason, updatedAt: new Date() })
        .where(and(eq(webhookSubscription.id, subscriptionId), eq(webhookSubscription.status, 'active')))
        .returning({
          url: webhookSubscription.url,
          companyId: webhookSubscription.companyId,
          ownerId: webhookSubscription.createdBy,
        })
      if (!row) return null
      const [owner] = row.ownerId
        ? await tx
            .select({ email: appUser.email })
            .from(appUser)
            .where(and(eq(appUser.id, row.ownerId), eq(appUser.status, 'active')))
        : []
      return { ...row, ownerEmail: owner?.email ?? null }
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

    /** Whether some delivery is due now (the background nudge's cheap check). */
    async anyDue(now: Date, tx: DbOrTx = db): Promise<boolean> {
      const rows = rowsOf(
        await tx.execute(sql`
        select 1 from webhook_delivery d join webhook_subscription s on s.id = d.subscription_id
        where d.status = 'pending' and s.status = 'active'
          and d.next_attempt_at <= ${now.toISOString()}::timestamptz limit 1`),
      )
      return rows.length > 0
    },
  }
}
export type OutboundWebhooksRepository = ReturnType<typeof createOutboundWebhooksRepository>
