import { and, eq, sql } from 'drizzle-orm'
import type { Db, DbOrTx } from '../../db/client'
import { company, course, dispatch, syncCheckpoint, syncMissing, syncSeen } from '../../db/schema'

/** The kinds a full listing checks for items gone upstream. */
export type RemovableKind = 'courses' | 'destinations' | 'dispatches'

export interface Checkpoint {
  kind: string
  since: Date | null
  listingStartedAt: Date
  /** null: every page is written; only the end of the run is left. */
  nextPage: string | null
  pages: number
}

/** Inclusive bounds on the provider's `created` of an item; a null `since` is open. */
export interface CreatedWindow {
  since: Date | null
  until: Date
}

const TABLES = { courses: course, destinations: company, dispatches: dispatch } as const
/** Live mirror rows of the kind created upstream inside the window (rows without a provider date are not). */
const inWindow = (w: CreatedWindow) =>
  w.since
    ? sql`removed_at is null and provider_created >= ${w.since.toISOString()}::timestamptz and provider_created <= ${w.until.toISOString()}::timestamptz`
    : sql`removed_at is null and provider_created <= ${w.until.toISOString()}::timestamptz`
const idsJson = (ids: Iterable<string>) => JSON.stringify([...new Set(ids)])
const inIds = (ids: Iterable<string>) => sql`(select jsonb_array_elements_text(${idsJson(ids)}::jsonb))`

/**
 * A sync's progress between runs (migration 0009): the checkpoint of a listing
 * under way, the ids its full listing has seen, and the items the last full listing missed.
 */
export function createSyncProgressRepository(db: Db) {
  return {
    async getCheckpoint(kind: string, tx: DbOrTx = db): Promise<Checkpoint | null> {
      const [row] = await tx.select().from(syncCheckpoint).where(eq(syncCheckpoint.kind, kind))
      return row ? { ...row } : null
    },

    /** Written in the transaction of the page it follows, so progress and data commit together. */
    async saveCheckpoint(checkpoint: Checkpoint, tx: DbOrTx = db): Promise<void> {
      const { kind: _kind, ...rest } = checkpoint
      await tx
        .insert(syncCheckpoint)
        .values(checkpoint)
        .onConflictDoUpdate({ target: syncCheckpoint.kind, set: { ...rest, updatedAt: sql`now()` } })
    },

    /** A listing's end (or its restart): the checkpoint and the ids it saw go. */
    async clearListing(kind: string, tx: DbOrTx = db): Promise<void> {
      await tx.delete(syncCheckpoint).where(eq(syncCheckpoint.kind, kind))
      await tx.delete(syncSeen).where(eq(syncSeen.kind, kind))
    },

    async addSeen(kind: RemovableKind, ids: string[], tx: DbOrTx = db): Promise<void> {
      if (ids.length === 0) return
      await tx.execute(
        sql`insert into ${syncSeen} (kind, id) select ${kind}, id from jsonb_array_elements_text(${idsJson(ids)}::jsonb) as id
          on conflict do nothing`,
      )
    },

    /** Items returned by any listing are there: they are no longer "missed". */
    async clearMissing(kind: RemovableKind, ids: string[], tx: DbOrTx = db): Promise<void> {
      if (ids.length === 0) return
      await tx.delete(syncMissing).where(and(eq(syncMissing.kind, kind), sql`${syncMissing.id} in ${inIds(ids)}`))
    },

    /** Mirrored, not marked removed, and not returned by the full listing just finished. */
    async unseen(kind: RemovableKind, tx: DbOrTx = db): Promise<string[]> {
      const table = TABLES[kind]
      const rows = (await tx.execute(
        sql`select t.id from ${table} t where t.removed_at is null
          and not exists (select 1 from ${syncSeen} s where s.kind = ${kind} and s.id = t.id)
          order by t.id`,
      )) as unknown as { rows: { id: string }[] }
      return rows.rows.map((r) => r.id)
    },

    async missed(kind: RemovableKind, tx: DbOrTx = db): Promise<Set<string>> {
      const rows = await tx.select({ id: syncMissing.id }).from(syncMissing).where(eq(syncMissing.kind, kind))
      return new Set(rows.map((r) => r.id))
    },

    /** The kind's "missed once" list becomes exactly `ids`. */
    async setMissing(kind: RemovableKind, ids: string[], tx: DbOrTx = db): Promise<void> {
      await tx.delete(syncMissing).where(eq(syncMissing.kind, kind))
      if (ids.length === 0) return
      await tx.execute(
        sql`insert into ${syncMissing} (kind, id) select ${kind}, id from jsonb_array_elements_text(${idsJson(ids)}::jsonb) as id`,
      )
    },

    /** How many live rows the provider created inside the window (sync-reconcile.ts). */
    async createdCount(kind: RemovableKind, w: CreatedWindow, tx: DbOrTx = db): Promise<number> {
      const rows = (await tx.execute(
        sql`select count(*)::int as n from ${TABLES[kind]} where ${inWindow(w)}`,
      )) as unknown as { rows: { n: number }[] }
      return Number(rows.rows[0]?.n ?? 0)
    },

    /** The provider `created` of the row at this position (0-based, oldest first) inside the window. */
    async createdAt(kind: RemovableKind, w: CreatedWindow, position: number, tx: DbOrTx = db): Promise<Date | null> {
      const rows = (await tx.execute(
        sql`select provider_created as at from ${TABLES[kind]} where ${inWindow(w)}
          order by provider_created, id offset ${position} limit 1`,
      )) as unknown as { rows: { at: Date | string }[] }
      const at = rows.rows[0]?.at
      return at === undefined ? null : new Date(at)
    },

    async createdIds(kind: RemovableKind, w: CreatedWindow, tx: DbOrTx = db): Promise<string[]> {
      const rows = (await tx.execute(
        sql`select id from ${TABLES[kind]} where ${inWindow(w)} order by id`,
      )) as unknown as { rows: { id: string }[] }
      return rows.rows.map((r) => r.id)
    },

    /** Marks these rows removed upstream (their history stays); returns how many were live. */
    async markRemoved(kind: RemovableKind, ids: string[], tx: DbOrTx = db): Promise<number> {
      if (ids.length === 0) return 0
      const table = TABLES[kind]
      const touched = kind === 'dispatches' ? sql`` : sql`, updated_at = now()`
      const rows = (await tx.execute(
        sql`update ${table} set removed_at = now()${touched} where removed_at is null and id in ${inIds(ids)} returning id`,
      )) as unknown as { rows: { id: string }[] }
      return rows.rows.length
    },
  }
}
export type SyncProgressRepository = ReturnType<typeof createSyncProgressRepository>
