import { sql } from 'drizzle-orm'
import type { Db, DbOrTx } from './client'
import { eachLimit } from '../lib/each-limit'
import { rowsOf } from './statement'

/**
 * A table's secondary indexes set aside while it is filled in bulk, and built again after
 * (migration 0046). Only indexes that enforce nothing are set aside: the primary key and every
 * unique index stay, so upserts keep their conflict targets and no duplicate can slip in.
 * Readers meanwhile get the same rows by slower plans.
 *
 * Each index's definition (pg_get_indexdef) is recorded in the transaction that drops it, and
 * deleted in the one that creates it again, so whatever happens in between, the note and the
 * missing index go together.
 */

/** Sets aside `table`'s secondary indexes; returns how many. Those already aside stay recorded. */
export async function setIndexesAside(db: Db, table: string): Promise<number> {
  return db.transaction(async (tx) => {
    const indexes = rowsOf<{ name: string; definition: string }>(
      await tx.execute(sql`
        select c.relname as name, pg_get_indexdef(i.indexrelid) as definition
        from pg_index i join pg_class c on c.oid = i.indexrelid
        where i.indrelid = to_regclass(${table}) and not i.indisunique and not i.indisprimary
        order by c.relname`),
    )
    for (const { name, definition } of indexes) {
      await tx.execute(sql`
        insert into index_aside (name, table_name, definition) values (${name}, ${table}, ${definition})
        on conflict (name) do update set table_name = excluded.table_name, definition = excluded.definition`)
      await tx.execute(sql`drop index ${sql.identifier(name)}`)
    }
    return indexes.length
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
 * Builds again every index of `table` set aside, `atOnce` at a time (the trigram indexes, the
 * longest, first), each in a transaction of its own that also deletes its note; returns how many
 * it built. An index that exists by then (a migration made it meanwhile) is left as it is, and a
 * note another process has dealt with meanwhile is skipped.
 */
export async function restoreIndexes(db: Db, table: string, atOnce = 1): Promise<number> {
  const aside = rowsOf<{ name: string }>(
    await db.execute(sql`
      select name from index_aside where table_name = ${table}
      order by definition like '% USING gin %' desc, name`),
  )
  let built = 0
  await eachLimit(aside, atOnce, ({ name }) =>
    db.transaction(async (tx) => {
      const [note] = rowsOf<{ definition: string }>(
        await tx.execute(sql`select definition from index_aside where name = ${name} for update`),
      )
      if (!note) return
      await tx.execute(sql.raw(note.definition.replace(/^CREATE INDEX /, 'CREATE INDEX IF NOT EXISTS ')))
      await tx.execute(sql`delete from index_aside where name = ${name}`)
      built += 1
    }),
  )
  return built
}
