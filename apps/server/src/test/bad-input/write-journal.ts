import { sql } from 'drizzle-orm'
import type { Db } from '../../db/client'

export interface JournalRow {
  id: number
  tbl: string
  op: string
  /** activity_log rows: the action written. */
  action: string | null
}

/**
 * A test-only row trigger on every table of the test database records each committed insert,
 * update and delete (a rolled-back write leaves no row, as it leaves no change). Reading the
 * rows after a request re-reads everything that request changed, in any table, including
 * tables added after this suite was written.
 */
export async function installWriteJournal(db: Db): Promise<{ since(): Promise<JournalRow[]> }> {
  await db.execute(sql`create table bad_input_journal (
    id bigserial primary key, tbl text not null, op text not null, action text)`)
  await db.execute(sql`create function bad_input_note() returns trigger language plpgsql as $$
    begin
      -- A partition's row is its parent table's (the activity log is partitioned by month).
      insert into bad_input_journal (tbl, op, action)
      values (coalesce((select p.relname from pg_inherits i join pg_class p on p.oid = i.inhparent
                        where i.inhrelid = TG_RELID), TG_TABLE_NAME),
              TG_OP, case when TG_OP = 'DELETE' then null else to_jsonb(NEW) ->> 'action' end);
      return null;
    end $$`)
  // Tables and partitioned tables, not their partitions: a trigger on a partitioned table is
  // cloned onto each partition (and onto partitions made later).
  const tables = (await db.execute(sql`
    select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition
      and c.relname <> 'bad_input_journal'`)) as unknown as {
    rows: { name: string }[]
  }
  for (const { name } of tables.rows) {
    await db.execute(
      sql.raw(`create trigger bad_input_note after insert or update or delete on "${name}"
        for each row execute function bad_input_note()`),
    )
  }
  let last = 0
  return {
    /** The writes committed since the previous call. */
    async since() {
      const result = (await db.execute(
        sql`select id, tbl, op, action from bad_input_journal where id > ${last} order by id`,
      )) as unknown as { rows: (Omit<JournalRow, 'id'> & { id: number | string })[] }
      const rows = result.rows.map((r) => ({ ...r, id: Number(r.id) }))
      if (rows.length > 0) last = rows[rows.length - 1]!.id
      return rows
    },
  }
}
