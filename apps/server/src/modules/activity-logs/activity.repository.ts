import type { ActivityAction } from '@portal/shared'
import { and, eq, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { activityLog } from '../../db/schema'
import type { Actor } from '../../lib/actor'

export type { Actor }

export interface ActivityEntry {
  action: ActivityAction
  actor?: Actor | null
  details?: unknown
  ipAddress?: string | null
}

/**
 * The activity log's writer: one object built in app.ts and handed to every service that
 * records what it did. Pass the transaction of the change a row records, so the change and its
 * row commit or fail together (docs/architecture.md "How a request flows").
 */
export function createActivityRepository(db: DbOrTx) {
  return {
    async record(entry: ActivityEntry, tx: DbOrTx = db): Promise<void> {
      await tx.insert(activityLog).values({
        action: entry.action,
        userId: entry.actor?.id ?? null,
        actorName: entry.actor?.name ?? null,
        actorEmail: entry.actor?.email ?? null,
        details: entry.details === undefined ? null : entry.details,
        ipAddress: entry.ipAddress ?? null,
      })
    },
    /** The DISPATCH_CREATED row of this dispatch by this user, if written (its user and action are indexed). */
    async dispatchCreationLogged(userId: string, dispatchId: string, tx: DbOrTx = db): Promise<boolean> {
      const [row] = await tx
        .select({ id: activityLog.id })
        .from(activityLog)
        .where(
          and(
            eq(activityLog.userId, userId),
            eq(activityLog.action, 'DISPATCH_CREATED'),
            sql`${activityLog.details}->>'dispatchId' = ${dispatchId}`,
          ),
        )
        .limit(1)
      return row !== undefined
    },
  }
}
export type ActivityRepository = ReturnType<typeof createActivityRepository>
