import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import type { Database, Db } from '../../db/client'
import { rowsOf } from '../../db/statement'
import { planOfLogged } from '../../test/plan-nodes'
import { createTestDatabase, loggingDb, type LoggedStatement } from '../../test/test-database'
import { insertDispatches, insertRegistrations, type DispatchInput } from '../dispatches/dispatches.test-data'
import { createLearnersRepository } from './learners.repository'

/**
 * Every page of the learner list reads the company's courses for its course filter. They are
 * read from an index that holds them in title order with their titles (migration 0054), not one
 * heap page per dispatch and a sort. A search tests the text its trigram index holds (migration
 * 0056). Plans on both databases.
 */
const COMPANIES = 100
const PER_COMPANY = 60
let database: Database
let db: Db
const logged: LoggedStatement[] = []

beforeAll(async () => {
  database = await createTestDatabase()
  db = loggingDb(database, logged)
  // Each company's dispatches: 26 courses, each two or three times, titles in mixed case, one removed.
  const rows: DispatchInput[] = []
  for (let c = 1; c <= COMPANIES; c += 1)
    for (let d = 0; d < PER_COMPANY; d += 1)
      rows.push({
        id: `pl-${c}-${d}`,
        destinationId: `pl-company-${c}`,
        courseId: `pl-course-${d % 26}`,
        courseTitle: `${d % 2 ? 'course' : 'Course'} ${String.fromCharCode(65 + 25 - (d % 26))}`,
        removedAt: d === 7 ? new Date() : null,
      })
  await insertDispatches(db, rows)
  // Learners of four companies, 3,000 each; 12 of the first's are named Zebedee.
  const learners = Array.from({ length: 12_000 }, (_, i) => ({
    id: `pl-r${i}`,
    dispatchId: `pl-${1 + (i % 4)}-${i % PER_COMPANY}`,
    learnerFirstName: i % 1000 === 0 ? 'Zebedee' : `First${i}`,
    learnerLastName: `Last${i % 97}`,
    learnerEmail: `learner${i}@example.test`,
  }))
  for (let at = 0; at < learners.length; at += 2_000) await insertRegistrations(db, learners.slice(at, at + 2_000))
  await db.execute(sql`analyze company_learner`)
  await db.execute(sql`vacuum analyze dispatch`)
}, 120_000)
afterAll(async () => database.close())

describe('the learner list’s course choices', () => {
  it('are read index-only in title order, one per course, live dispatches only', async () => {
    const learners = createLearnersRepository(db)
    logged.length = 0
    const overview = await learners.overview({ companyId: 'pl-company-5' })
    const titles = overview.courses.map((c) => c.title)
    expect(overview.courses.map((c) => c.id).sort()).toEqual(
      Array.from({ length: 26 }, (_, k) => `pl-course-${k}`).sort(),
    )
    expect(titles).toEqual([...titles].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1)))
    expect(titles[0]).toBe('course A')
    // Course 7 is still offered by dispatch 33 although dispatch 7 was removed.

    const statement = logged.find((q) => q.text.includes('"courses"'))!
    const nodes = await planOfLogged(db, statement)
    const dispatchScans = nodes.filter((n) => n['Relation Name'] === 'dispatch')
    expect(dispatchScans.map((n) => [n['Node Type'], n['Index Name']])).toEqual([
      ['Index Only Scan', 'dispatch_company_courses_idx'],
    ])
    expect(nodes.map((n) => n['Node Type'])).not.toContain('Sort')
  })
})

describe('a learner search', () => {
  it('tests the name and e-mail text its trigram index holds', async () => {
    const learners = createLearnersRepository(db)
    logged.length = 0
    const found = await learners.gather(
      { companyId: 'pl-company-1', search: 'zebedee' },
      { sort: 'name', order: 'asc' },
      25,
      0,
    )
    expect(found.totals).toEqual({ total: 12, capped: false })
    expect((JSON.parse(found.rowsJson!) as { firstName: string }[]).map((l) => l.firstName)).toEqual(
      Array(12).fill('Zebedee'),
    )

    // The search tests the name and e-mail text exactly as the trigram index holds it, so the
    // index can serve it (whichever index the planner takes for a company of this size)...
    const text = "(first_name || ' '::text) || last_name) || ' '::text) || email)"
    const statement = logged.find((q) => q.text.includes('"rowsJson"'))!
    const nodes = await planOfLogged(db, statement)
    const scan = nodes.find((n) => n['Relation Name'] === 'company_learner' && JSON.stringify(n).includes(text))
    expect(scan).toBeDefined()
    // ...and the index holds that text.
    const [index] = rowsOf<{ indexdef: string }>(
      await db.execute(sql`select indexdef from pg_indexes where indexname = 'company_learner_search_idx'`),
    )
    expect(index?.indexdef).toMatch(/gin \(company_id, lower\(/)
    expect(index?.indexdef).toContain(`${text}) gin_trgm_ops`)
  })
})
