import { newClaim, type ClaimRequest } from '../../db/claims'
import { and, eq, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { appUser, webhookDelivery, webhookSubscription } from '../../db/schema'
import { rowsOf } from '../../db/statement'
import type { AttemptResult, ClaimedDelivery } from './outbound-webhooks.repository'

const date = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)))

/**
 * The delivery job's side of the outbox: leases, claims in order per dispatch, attempts, and the
 * subscription's failure counts (the repository spreads these into its own methods).
 */
export function deliveryQueries(db: DbOrTx) {
  return {
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
    async claim(request: ClaimRequest, tx: DbOrTx = db): Promise<ClaimedDelivery[]> {
      const { token, take, due } = newClaim(request)
      const claimed = rowsOf<{ id: string }>(
        await tx.execute(sql`
        update webhook_delivery w set ${take}
        where w.id in (
          select d.id from webhook_delivery d
          join webhook_subscription s on s.id = d.subscription_id and s.status = 'active'
          where d.status = 'pending'
            and (s.company_id is null
              or exists (select 1 from company c where c.id = s.company_id and c.api_keys_allowed))
            and ${due(sql`d.next_attempt_at`)}
            and not exists (
              select 1 from webhook_delivery e
              where e.subscription_id = d.subscription_id and e.order_key = d.order_key
                and e.id < d.id and e.status in ('pending', 'sending'))
          order by d.id
          limit ${request.limit}
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
  }
}
