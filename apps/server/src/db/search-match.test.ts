import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import { createTestDatabase } from '../test/test-database'
import type { Database } from './client'
import { matchesTermMatch, termMatch } from './search'
import { rowsOf } from './statement'

/**
 * A term's condition finds the same rows whether an index serves it or it is compared row by
 * row, where a short term is first tested as a LIKE of the term anywhere. On both databases.
 */
const TEXTS = [
  'cara jones cara@example.test',
  'ada lovelace x.ab@example.test',
  'sure thing',
  'measure',
  'a_b under_score',
  'ab_c',
  '50% off',
  '{"pathname": "/row/12/needle"}',
  'décor déjà',
]
const TERMS = ['ca', 'su', 'ab', 'b', '_b', '%', '50', 're', 'dé', 'ne', 'x', 'needle', 'ar']

let database: Database
beforeAll(async () => {
  database = await createTestDatabase()
  await database.db.execute(sql`create temporary table match_text (id int primary key, body text not null)`)
  for (const [i, body] of TEXTS.entries()) await database.db.execute(sql`insert into match_text values (${i}, ${body})`)
})
afterAll(async () => database.close())

async function found(term: string, indexed: boolean): Promise<number[]> {
  const condition = matchesTermMatch(sql`body`, termMatch(term), { lowered: true, indexed })
  const rows = rowsOf<{ id: number }>(
    await database.db.execute(sql`select id from match_text where ${condition} order by id`),
  )
  return rows.map((r) => Number(r.id))
}

describe('a term compared row by row', () => {
  it.each(TERMS)('finds the rows the indexed condition finds (%s)', async (term) => {
    expect(await found(term, false)).toEqual(await found(term, true))
  })

  it('matches a short term where a word starts only, and its pattern characters literally', async () => {
    expect(await found('su', false)).toEqual([2])
    expect(await found('ab', false)).toEqual([1, 5])
    expect(await found('_b', false)).toEqual([])
    expect(await found('b', false)).toEqual([4])
  })

  it('tests a short term as a LIKE before its regular expression, and a long one as a LIKE alone', async () => {
    const textOf = (term: string, indexed: boolean) =>
      database.db.execute(
        sql`explain select id from match_text where ${matchesTermMatch(sql`body`, termMatch(term), { lowered: true, indexed })}`,
      )
    const planText = async (term: string, indexed: boolean) =>
      rowsOf<{ 'QUERY PLAN': string }>(await textOf(term, indexed))
        .map((r) => r['QUERY PLAN'])
        .join('\n')
    const scanned = await planText('su', false)
    expect(scanned).toMatch(/Filter: \(\(\(body \|\| ''::text\) ~~ .*\) AND \(\(body \|\| ''::text\) ~ /)
    expect(await planText('su', true)).not.toContain('~~')
    expect(await planText('needle', false)).not.toMatch(/ ~ /)
  })
})
