import { sql } from 'drizzle-orm'
import type { DbOrTx } from './client'

/**
 * Planner statistics kept current by the writer itself. PostgreSQL's autovacuum analyzes a
 * table once about a tenth of it has changed, but it may be off (as on our CI machine), lagging
 * behind a bulk load, or absent (PGlite has none). Then a mirror that grows from empty keeps the
 * statistics of an empty table, and the plans cached in the mirror's triggers (migrations 0008,
 * 0015, 0016) scan what they should probe: measured on the bench, a full sync slowed from
 * 150 s to a registration page every 2 s once `dispatch` held 50,000 rows the planner took for 200.
 *
 * A table is analyzed once the rows changed since its last analysis pass
 * `STALE_BASE + STALE_SCALE × rows at that analysis` (autovacuum's formula, larger terms: a
 * sync checks it every few pages). ANALYZE reads a fixed sample, so each pass costs about the
 * same at any size, and the passes come at geometric steps of growth.
 */
export const STALE_BASE = 1_000
export const STALE_SCALE = 0.2

type Row = { table: string }

/** Analyzes this schema's tables whose statistics are stale; returns their names. */
export async function analyzeStaleTables(db: DbOrTx): Promise<string[]> {
  const result = await db.execute(sql`
    select s.relname as "table"
    from pg_stat_user_tables s join pg_class c on c.oid = s.relid
    where s.schemaname = current_schema()
      and c.relkind = 'r'
      and s.n_mod_since_analyze > ${STALE_BASE} + ${STALE_SCALE} * greatest(c.reltuples, 0)
    order by s.relname`)
  const tables = (result as unknown as { rows: Row[] }).rows.map((r) => r.table)
  for (const table of tables) await db.execute(sql`analyze ${sql.identifier(table)}`)
  return tables
}

/**
 * Tables read by index-only scans (migration 0017: a learner page's offset walks a sort index
 * alone). Those pay only where the visibility map says a page's rows are visible to all, and
 * only VACUUM sets it: a migration that rewrote the table (0017 adds stored columns) leaves it
 * empty, and then the planner prices the walk as a heap fetch per row and sorts the company
 * instead (measured on the bench: a deep learner page 5 ms after VACUUM, 176 ms before).
 * Autovacuum would get there, but may be off (as on our CI machine) and counts no rewrite.
 */
export const INDEX_ONLY_TABLES = ['company_learner'] as const

/**
 * Vacuums the tables of INDEX_ONLY_TABLES whose visibility map (as the planner last saw it)
 * covers less than half of their pages; returns their names. Run after migrating.
 */
export async function vacuumForIndexOnlyScans(db: DbOrTx): Promise<string[]> {
  const vacuumed: string[] = []
  for (const table of INDEX_ONLY_TABLES) {
    const result = await db.execute(sql`
      select 1 from pg_class
      where oid = to_regclass(${table}) and relkind = 'r' and relpages > 0 and relallvisible < relpages / 2`)
    if ((result as unknown as { rows: unknown[] }).rows.length === 0) continue
    await db.execute(sql`vacuum ${sql.identifier(table)}`)
    vacuumed.push(table)
  }
  return vacuumed
}
