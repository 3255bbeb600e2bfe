import { desc, eq, sql } from 'drizzle-orm'
import type { SyncCounts, SyncKind, SyncRun, SyncRunStatus, SyncTrigger } from '@portal/shared'
import type { DbOrTx } from '../../db/client'
import { syncCursor, syncRun } from '../../db/schema'

/**
 * sync_cursor also holds one row that is not a kind: the start of the last complete full run,
 * so every server process agrees on when the daily full run is due.
 */
export const FULL_RUN_CURSOR = 'full-run'

const iso = (d: Date | null) => (d ? d.toISOString() : null)

/** sync_run rows (one per kind and run) and the `since` cursors. */
export const syncRunRepository = {
  async start(db: DbOrTx, kind: SyncKind, trigger: SyncTrigger, startedAt: Date): Promise<number> {
    const [row] = await db
      .insert(syncRun)
      .values({ kind, trigger, status: 'running', startedAt })
      .returning({ id: syncRun.id })
    return row!.id
  },

  async finish(
    db: DbOrTx,
    id: number,
    status: Exclude<SyncRunStatus, 'running'>,
    counts: SyncCounts,
    message: string | null,
  ): Promise<void> {
    await db
      .update(syncRun)
      .set({ status, ...counts, message, finishedAt: sql`now()` })
      .where(eq(syncRun.id, id))
  },

  /**
   * Runs left 'running' by a process that died mid-run. Called while holding the sync lock, when
   * no run can be live anywhere, so every such row is dead.
   */
  async failAbandoned(db: DbOrTx): Promise<void> {
    await db
      .update(syncRun)
      .set({ status: 'failed', message: 'Interrupted: the server stopped during the run.', finishedAt: sql`now()` })
      .where(eq(syncRun.status, 'running'))
  },

  async getCursor(db: DbOrTx, kind: string): Promise<Date | null> {
    const [row] = await db.select({ since: syncCursor.since }).from(syncCursor).where(eq(syncCursor.kind, kind))
    return row?.since ?? null
  },

  async setCursor(db: DbOrTx, kind: string, since: Date): Promise<void> {
    await db
      .insert(syncCursor)
      .values({ kind, since })
      .onConflictDoUpdate({ target: syncCursor.kind, set: { since, updatedAt: sql`now()` } })
  },

  /** The newest run of each kind. */
  async lastRuns(db: DbOrTx): Promise<Partial<Record<SyncKind, SyncRun>>> {
    const rows = await db
      .selectDistinctOn([syncRun.kind])
      .from(syncRun)
      .orderBy(syncRun.kind, desc(syncRun.startedAt), desc(syncRun.id))
    const out: Partial<Record<SyncKind, SyncRun>> = {}
    for (const r of rows) {
      out[r.kind as SyncKind] = {
        kind: r.kind as SyncKind,
        trigger: r.trigger as SyncTrigger,
        status: r.status as SyncRunStatus,
        startedAt: r.startedAt.toISOString(),
        finishedAt: iso(r.finishedAt),
        created: r.created,
        updated: r.updated,
        skipped: r.skipped,
        errors: r.errors,
        message: r.message,
      }
    }
    return out
  },

  async lastSuccessAt(db: DbOrTx): Promise<Date | null> {
    const [row] = await db
      .select({ at: sql<Date | string | null>`max(${syncRun.finishedAt})` })
      .from(syncRun)
      .where(eq(syncRun.status, 'succeeded'))
    // A bare max() comes back untyped (a string on some drivers).
    return row?.at ? new Date(row.at) : null
  },
}
