import { sql } from 'drizzle-orm'
import type { DbOrTx } from './client'
import { rowsOf } from './statement'

/**
 * Tables read by index-only scans (migration 0017: a learner page's offset walks a sort index
 * alone). Those pay only where the visibility map says a page's rows are visible to all, and
 * only VACUUM sets it: a migration that rewrote the table (0017 adds stored columns) leaves it
 * empty, and then the planner prices the walk as a heap fetch per row and sorts the company
 * instead (a deep learner page is many times slower until the table is vacuumed).
 * Autovacuum would get there, but may be off (as on our CI machine) and counts no rewrite.
 * `dispatch`: its list walks and a search's collected matches are index-only (migration 0023
 * rewrote it to add the stored sort keys). The log's day counts (`activity_log_day`,
 * `activity_log_user_day`): every log page and search reads them index-only (migration 0049);
 * PGlite, which has no autovacuum, read them through the heap, a page for every few days.
 * `dispatch_sort_count`: a deep staff page reads its counts by key index-only (migration 0053).
 * The log's month partitions (`activity_log`, partitioned): a search with a user reads the user's
 * rows in a slice of time with their text index-only (migration 0058).
 */
export const INDEX_ONLY_TABLES = [
  'company_learner',
  'dispatch',
  'dispatch_sort_count',
  'activity_log_day',
  'activity_log_user_day',
] as const

/** Partitioned tables whose partitions are read index-only (each partition has its own map). */
export const INDEX_ONLY_PARTITIONED = ['activity_log'] as const

/**
 * Vacuums the tables of INDEX_ONLY_TABLES and the partitions of INDEX_ONLY_PARTITIONED whose
 * visibility map (as the planner last saw it) covers less than half of their pages; returns their
 * names. Run after migrating, and by the planner-statistics job (background.ts) as the portal's own
 * writes fill them.
 */
export async function vacuumForIndexOnlyScans(db: DbOrTx): Promise<string[]> {
  const regclasses = (tables: readonly string[]) =>
    sql.join(
      tables.map((table) => sql`to_regclass(${table})`),
      sql`, `,
    )
  // Which of them need it, in one statement: the listed tables in their order, then the partitions.
  const due = rowsOf<{ name: string }>(
    await db.execute(sql`
      select c.relname as name from pg_class c left join pg_inherits i on i.inhrelid = c.oid
      where c.relkind = 'r' and c.relpages > 0 and c.relallvisible < c.relpages / 2
        and (c.oid = any(array[${regclasses(INDEX_ONLY_TABLES)}])
          or i.inhparent = any(array[${regclasses(INDEX_ONLY_PARTITIONED)}]))
      order by array_position(array[${sql.join(
        INDEX_ONLY_TABLES.map((table) => sql`${table}`),
        sql`, `,
      )}]::text[], c.relname::text) nulls last, c.relname`),
  ).map((r) => r.name)
  for (const table of due) await db.execute(sql`vacuum ${sql.identifier(table)}`)
  return due
}
