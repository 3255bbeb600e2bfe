import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import { createTestDatabase } from '../test/test-database'
import type { Database } from './client'

/**
 * The trigram indexes the searches are written for (migrations 0019 and 0020), on
 * PGlite and PostgreSQL alike. Plans on a test's few rows prefer scans, so the definitions are
 * checked here; bench/results/latest.md has the plans at the bench's size.
 */
describe('search indexes', () => {
  let database: Database
  beforeAll(async () => {
    database = await createTestDatabase()
  })
  afterAll(async () => database.close())

  const definitions = async (table: string) => {
    const result = (await database.db.execute(
      sql`select indexname as name, indexdef as def from pg_indexes where schemaname = current_schema() and tablename = ${table}`,
    )) as unknown as { rows: { name: string; def: string }[] }
    return new Map(result.rows.map((r) => [r.name, r.def]))
  }

  it('finds a report search by dispatch, status and learner text in one index', async () => {
    const indexes = await definitions('registration')
    expect(indexes.has('registration_learner_search_idx')).toBe(false)
    const def = indexes.get('registration_learner_status_search_idx')
    expect(def).toMatch(
      /USING gin \(dispatch_id, completion_status, lower\(.*gin_trgm_ops\) WHERE \(removed_at IS NULL\)/,
    )
  })

  it('finds a log search with dots in the text without its dots, on every month partition', async () => {
    const indexes = await definitions('activity_log')
    // The user and the action are keys of both search indexes, so a filtered search meets them there.
    expect(indexes.get('activity_log_search_trgm_idx')).toMatch(
      /USING gin \(user_id, action, search_text gin_trgm_ops\)/,
    )
    expect(indexes.get('activity_log_search_dotless_idx')).toMatch(
      /USING gin \(user_id, action, translate\(search_text, '\.'::text, ''::text\) gin_trgm_ops\)/,
    )
    const partitions = (await database.db.execute(sql`
      select c.relname as name,
        exists (select 1 from pg_index i join pg_class x on x.oid = i.indexrelid
                where i.indrelid = c.oid and pg_get_indexdef(x.oid) like '%translate(search_text%') as indexed
      from pg_inherits h join pg_class c on c.oid = h.inhrelid
      where h.inhparent = 'activity_log'::regclass`)) as unknown as { rows: { name: string; indexed: boolean }[] }
    expect(partitions.rows.length).toBeGreaterThan(1)
    expect(partitions.rows.filter((p) => !p.indexed)).toEqual([])
  })
})
