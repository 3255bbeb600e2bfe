import { sql } from 'drizzle-orm'
import type { DbOrTx } from './client'

/**
 * Planner statistics kept current by the portal itself. PostgreSQL's autovacuum analyzes a
 * table once about a tenth of it has changed, but it may be off (as on our CI machine), lagging
 * behind a bulk load, or absent (PGlite has none). Then a mirror that grows from empty keeps the
 * statistics of an empty table, and the plans cached in the mirror's triggers (migrations 0008,
 * 0015, 0016) scan what they should probe: a full sync slowed to a crawl once `dispatch` held
 * tens of thousands of rows the planner took for a few hundred.
 *
 * A table is analyzed once the rows changed since its last analysis pass
 * `STALE_BASE + STALE_SCALE × rows at that analysis` (autovacuum's formula, larger terms: a
 * sync checks it every few pages). ANALYZE reads a fixed sample, so each pass costs about the
 * same at any size, and the passes come at geometric steps of growth.
 *
 * PGlite keeps no change counts across a restart (they start at zero each time it opens its
 * folder), so what was written before it (a bulk load, a restore, the last run's own writes)
 * is caught by size instead: a table that holds rows but has no column statistics at all, or
 * whose file grew by more than STALE_SCALE of the pages it had at its last analysis.
 */
export const STALE_BASE = 1_000
export const STALE_SCALE = 0.2
/** Pages a table may grow by, beyond STALE_SCALE of its size, before its file alone says "stale". */
const STALE_BASE_PAGES = 16

type Row = { table: string }

/** Analyzes this schema's tables whose statistics are stale; returns their names. */
export async function analyzeStaleTables(db: DbOrTx): Promise<string[]> {
  const result = await db.execute(sql`
    select s.relname as "table"
    from pg_stat_user_tables s join pg_class c on c.oid = s.relid
    where s.schemaname = current_schema()
      and c.relkind = 'r'
      and (
        s.n_mod_since_analyze > ${STALE_BASE} + ${STALE_SCALE} * greatest(c.reltuples, 0)
        or (c.reltuples > 0 and not exists (
          select 1 from pg_stats p where p.schemaname = s.schemaname and p.tablename = s.relname))
        or pg_relation_size(c.oid) / current_setting('block_size')::int
          > ${STALE_BASE_PAGES}::int + ${1 + STALE_SCALE}::float8 * c.relpages
      )
      -- The staging table of a first sync's registrations (migration 0045) grows by a million
      -- rows in steps, each of which would be sampled again while nothing reads it; the sync
      -- analyzes it once, before the move reads it by dispatch.
      and s.relname <> 'registration_load'
    order by s.relname`)
  const tables = (result as unknown as { rows: Row[] }).rows.map((r) => r.table)
  for (const table of tables) await db.execute(sql`analyze ${sql.identifier(table)}`)
  return tables
}
