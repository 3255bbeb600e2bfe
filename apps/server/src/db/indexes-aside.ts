import { sql } from 'drizzle-orm'
import type { Db, DbOrTx } from './client'
import { eachLimit } from '../lib/each-limit'
import { rowsOf } from './statement'

/**
 * A table's secondary indexes and foreign keys set aside while it is filled in bulk, and made
 * again after (migration 0046), as PostgreSQL's guide to populating a database advises. Only
 * indexes that enforce nothing are set aside: the primary key and every unique index stay, so
 * upserts keep their conflict targets and no duplicate can slip in. Readers meanwhile get the
 * same rows by slower plans.
 *
 * A foreign key checks each inserted row by a look-up in the table it references, queued as a
 * trigger event per row; added again afterwards it checks every row in one join. The portal's
 * writers check the referenced row themselves before they write (a registration is written
 * only for a dispatch the mirror has, and dispatches are never deleted), so nothing can slip in
 * meanwhile; if something did, adding the key again fails and names it, and the note stays.
 *
 * Each definition (pg_get_indexdef, or the constraint as an ALTER TABLE) is recorded in the
 * transaction that drops it, and deleted in the one that makes it again, so whatever happens in
 * between, the note and what is missing go together.
 */

/** Sets aside `table`'s secondary indexes and foreign keys; returns how many. Those already aside stay recorded. */
export async function setIndexesAside(db: Db, table: string): Promise<number> {
  return db.transaction(async (tx) => {
    const aside = rowsOf<{ name: string; definition: string; constraint: boolean }>(
      await tx.execute(sql`
        select c.relname as name, pg_get_indexdef(i.indexrelid) as definition, false as constraint
        from pg_index i join pg_class c on c.oid = i.indexrelid
        where i.indrelid = to_regclass(${table}) and not i.indisunique and not i.indisprimary
        union all
        select k.conname, format('ALTER TABLE %I ADD CONSTRAINT %I %s', ${table}::text, k.conname,
          pg_get_constraintdef(k.oid)), true
        from pg_constraint k
        where k.conrelid = to_regclass(${table}) and k.contype = 'f'
        order by 1`),
    )
    for (const { name, definition, constraint } of aside) {
      await tx.execute(sql`
        insert into index_aside (name, table_name, definition) values (${name}, ${table}, ${definition})
        on conflict (name) do update set table_name = excluded.table_name, definition = excluded.definition`)
      await tx.execute(
        constraint
          ? sql`alter table ${sql.identifier(table)} drop constraint ${sql.identifier(name)}`
          : sql`drop index ${sql.identifier(name)}`,
      )
    }
    return aside.length
  })
}

/** Whether some index of `table` is set aside. */
export async function indexesAside(db: DbOrTx, table: string): Promise<boolean> {
  const [row] = rowsOf<{ aside: boolean }>(
    await db.execute(sql`select exists (select 1 from index_aside where table_name = ${table}) as aside`),
  )
  return row?.aside === true
}

/**
 * Makes again everything of `table` set aside, each in a transaction of its own that also
 * deletes its note; returns how many it made. The indexes go `atOnce` at a time, the trigram
 * indexes (the longest) first; the foreign keys after them, since adding one waits for every
 * index build on the table and meanwhile holds back writes to the table it references. An
 * index or key that exists by then (a migration made it meanwhile) is left as it is, and a note
 * another process has dealt with meanwhile is skipped.
 */
export async function restoreIndexes(db: Db, table: string, atOnce = 1): Promise<number> {
  const aside = rowsOf<{ name: string; constraint: boolean }>(
    await db.execute(sql`
      select name, definition like 'ALTER TABLE %' as constraint from index_aside where table_name = ${table}
      order by definition like '% USING gin %' desc, name`),
  )
  let built = 0
  const restore = ({ name, constraint }: { name: string; constraint: boolean }) =>
    db.transaction(async (tx) => {
      const [note] = rowsOf<{ definition: string; exists: boolean }>(
        await tx.execute(sql`
          select definition, exists (
            select 1 from pg_constraint where conrelid = to_regclass(${table}) and conname = ${name}) as exists
          from index_aside where name = ${name} for update`),
      )
      if (!note) return
      if (!constraint) {
        await tx.execute(sql.raw(note.definition.replace(/^CREATE INDEX /, 'CREATE INDEX IF NOT EXISTS ')))
      } else if (!note.exists) {
        await tx.execute(sql.raw(note.definition))
      }
      await tx.execute(sql`delete from index_aside where name = ${name}`)
      built += 1
    })
  await eachLimit(
    aside.filter((a) => !a.constraint),
    atOnce,
    restore,
  )
  for (const key of aside.filter((a) => a.constraint)) await restore(key)
  return built
}
