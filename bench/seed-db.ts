/**
 * The SQL seed's database chores (bench/seed-sql.ts): turning JIT off for
 * the build, and dropping indexes for the load while keeping the statements that make them again.
 */
import type pg from 'pg'
import { withClient } from './pg-admin'

/**
 * Drops registration's indexes and primary key for the load, their definitions kept in
 * bench_seed_index first, so a resumed run makes the same ones again.
 */
export async function dropRegistrationIndexes(client: pg.Client) {
  await client.query(`create unlogged table if not exists bench_seed_index (name text primary key, definition text)`)
  await client.query(
    `insert into bench_seed_index
     select i.indexname, i.indexdef from pg_indexes as i
     where i.schemaname = 'public' and i.tablename = 'registration'
       and not exists (select 1 from pg_constraint as c where c.conname = i.indexname)
     union all
     select conname, format('alter table registration add constraint %I %s', conname, pg_get_constraintdef(oid))
     from pg_constraint where conrelid = 'registration'::regclass and contype = 'p'
     on conflict do nothing`,
  )
  await client.query(`alter table registration drop constraint if exists registration_pkey`)
  for (const index of await secondaryIndexes(client, ['registration']))
    await client.query(`drop index "${index.indexname}"`)
  const { rows } = await client.query<{ indexname: string; indexdef: string }>(
    `select name as indexname, definition as indexdef from bench_seed_index order by name <> 'registration_pkey', name`,
  )
  return rows
}

/** A table's indexes other than its primary key, with the statements that make them again. */
export async function secondaryIndexes(client: pg.Client, tables: string[]) {
  const { rows } = await client.query<{ indexname: string; indexdef: string }>(
    `select i.indexname, i.indexdef from pg_indexes as i
     where i.schemaname = 'public' and i.tablename = any($1)
       and not exists (select 1 from pg_constraint as c where c.conname = i.indexname and c.contype = 'p')`,
    [tables],
  )
  return rows
}

/** The database's JIT setting for its next connections (off while the seed builds). */
export async function setJit(url: string, value: 'off' | 'default'): Promise<void> {
  const to = value === 'off' ? 'set jit = off' : 'reset jit'
  await withClient(url, (client) =>
    client.query(`do $$ begin execute format('alter database %I ${to}', current_database()); end $$`),
  )
}
