import { desc, eq, sql } from 'drizzle-orm'
import type { SyncCounts, SyncKind, SyncRun, SyncRunStatus, SyncTrigger } from '@portal/shared'
import type { Db, DbOrTx } from '../../db/client'
import { syncCursor, syncProviderState, syncRun } from '../../db/schema'

/**
 * sync_cursor also holds one row that is not a kind: the start of the last complete full run,
 * so every server process agrees on when the daily full run is due.
 */
export const FULL_RUN_CURSOR = 'full-run'

const iso = (d: Date | null) => (d ? d.toISOString() : null)

/** sync_run rows (one per kind and run) and the `since` cursors. */
export function createSyncRunRepository(db: Db) {
  return {
    async start(kind: SyncKind, trigger: SyncTrigger, startedAt: Date, tx: DbOrTx = db): Promise<number> {
      const [row] = await tx
        .insert(syncRun)
        .values({ kind, trigger, status: 'running', startedAt })
        .returning({ id: syncRun.id })
      return row!.id
    },

    async finish(
      id: number,
      status: Exclude<SyncRunStatus, 'running'>,
      counts: SyncCounts,
      message: string | null,
      tx: DbOrTx = db,
      /** Where the run's time went (sync-kind-run.ts KindTiming). */
      timing?: { providerWaitMs: number; writeMs: number },
    ): Promise<void> {
      const split = timing ? { providerWaitMs: timing.providerWaitMs, writeMs: timing.writeMs } : {}
      await tx
        .update(syncRun)
        .set({ status, ...counts, message, ...split, finishedAt: sql`now()` })
        .where(eq(syncRun.id, id))
    },

    /**
     * Runs left 'running' by a process that died mid-run. Called while holding the sync lock, when
     * no run can be live anywhere, so every such row is dead.
     */
    async failAbandoned(tx: DbOrTx = db): Promise<void> {
      await tx
        .update(syncRun)
        .set({ status: 'failed', message: 'Interrupted: the server stopped during the run.', finishedAt: sql`now()` })
        .where(eq(syncRun.status, 'running'))
    },

    async getCursor(kind: string, tx: DbOrTx = db): Promise<Date | null> {
      const [row] = await tx.select({ since: syncCursor.since }).from(syncCursor).where(eq(syncCursor.kind, kind))
      return row?.since ?? null
    },

    async setCursor(kind: string, since: Date, tx: DbOrTx = db): Promise<void> {
      await tx
        .insert(syncCursor)
        .values({ kind, since })
        .onConflictDoUpdate({ target: syncCursor.kind, set: { since, updatedAt: sql`now()` } })
    },

    /** Records the SCORM Cloud error a sync met, or clears it (null) after a sync that succeeded. */
    async setProviderError(message: string | null, tx: DbOrTx = db): Promise<void> {
      await tx
        .insert(syncProviderState)
        .values({ id: true, lastError: message })
        .onConflictDoUpdate({ target: syncProviderState.id, set: { lastError: message, updatedAt: sql`now()` } })
    },

    async providerError(tx: DbOrTx = db): Promise<string | null> {
      const [row] = await tx.select({ lastError: syncProviderState.lastError }).from(syncProviderState)
      return row?.lastError ?? null
    },

    /** The newest run of each kind. */
    async lastRuns(tx: DbOrTx = db): Promise<Partial<Record<SyncKind, SyncRun>>> {
      const rows = await tx
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

    async lastSuccessAt(tx: DbOrTx = db): Promise<Date | null> {
      const [row] = await tx
        .select({ at: sql<Date | string | null>`max(${syncRun.finishedAt})` })
        .from(syncRun)
        .where(eq(syncRun.status, 'succeeded'))
      // A bare max() comes back untyped (a string on some drivers).
      return row?.at ? new Date(row.at) : null
    },
  }
}
export type SyncRunRepository = ReturnType<typeof createSyncRunRepository>
