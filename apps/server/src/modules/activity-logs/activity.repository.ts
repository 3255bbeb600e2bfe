import type { ActivityAction } from '@portal/shared'
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
 * Writes one activity row. Pass the transaction of the change it records, so the change and
 * its row commit or fail together (ARCHITECTURE.md "How a request flows").
 */
export async function recordActivity(db: DbOrTx, entry: ActivityEntry): Promise<void> {
  await db.insert(activityLog).values({
    action: entry.action,
    userId: entry.actor?.id ?? null,
    actorName: entry.actor?.name ?? null,
    actorEmail: entry.actor?.email ?? null,
    details: entry.details === undefined ? null : entry.details,
    ipAddress: entry.ipAddress ?? null,
  })
}
