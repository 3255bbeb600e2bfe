import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import { termMatch } from '../../db/search'
import { rowsOf, runStatement, type CompiledStatement } from '../../db/statement'
import { buildTestApp, type TestContext } from '../../test/helpers'
import { planNodes, type PlanNode } from '../../test/plan-nodes'
import { dispatchFields } from './dispatches.fields'
import { pageStatement } from './dispatches-page.sql'
import { staffSearchSummarySql } from './dispatches-summary.sql'

/**
 * Migration 0023: the list sorts by stored lowered keys, so neither a searched
 * page's collected matches nor a page's rows are lowered again on every read, and the matches
 * are read index-only. Plans on both databases.
 */
let t: TestContext

beforeAll(async () => {
  t = await buildTestApp()
  await t.database.db.execute(sql`
    insert into company (id, name) select 'plan-co-' || n, 'Plan Company ' || n from generate_series(1, 20) as n`)
  await t.database.db.execute(sql`
    insert into course (id, title) select 'plan-course-' || n, 'Plan Course ' || n from generate_series(1, 30) as n`)
  await t.database.db.execute(sql`
    insert into dispatch (id, course_id, destination_id, destination_name, course_title, registration_count)
    select 'plan-' || n, 'plan-course-' || (n % 30 + 1), 'plan-co-' || (n % 20 + 1), 'Plan Company ' || (n % 20 + 1),
      'Plan Course ' || (n % 30 + 1), n % 97
    from generate_series(1, 6000) as n`)
  await t.database.db.execute(sql`vacuum analyze dispatch`)
})
afterAll(async () => t.close())

async function nodesOf({ statement, values }: { statement: CompiledStatement; values: Record<string, unknown> }) {
  const explain = { ...statement, text: `explain (format json) ${statement.text}` }
  const [row] = (await runStatement(t.database.db, explain, values)) as {
    'QUERY PLAN': [{ Plan: PlanNode }] | string
  }[]
  return planNodes(row!['QUERY PLAN'])
}

const live = { status: 'all' } as const
const fields = dispatchFields.view('admin')

describe('dispatch list plans (migration 0023)', () => {
  // One course of thirty: 200 of 6,000 dispatches, a sparse search.
  const sets = { courses: ['plan-course-7'], companies: [] }
  const filter = { ...live, search: 'plan course 7' }
  const counts = { matches: 200, scope: 6000 }

  it.each([
    ['status', 0],
    ['registrations', 0],
    // Sorted by client, a page whose end is past the matches a group holds: collected too.
    ['client', 150],
  ] as const)(
    'collects a sparse search index-only and sorts it by the stored key (%s, offset %i)',
    async (sort, offset) => {
      const nodes = await nodesOf(pageStatement(false, fields, filter, sets, sort, 'asc', 50, offset, counts))
      expect(nodes).toContainEqual(
        expect.objectContaining({ 'Node Type': 'Index Only Scan', 'Index Name': 'dispatch_search_course_idx' }),
      )
      const sortKeys = nodes.flatMap((node) => node['Sort Key'] ?? [])
      expect(sortKeys.length).toBeGreaterThan(0)
      expect(sortKeys.join(' ')).not.toMatch(/lower\(/)
    },
  )

  it.each([
    ['client', 'asc', 'dispatch_search_course_idx'],
    ['client', 'desc', 'dispatch_search_course_idx'],
    ['course', 'asc', 'dispatch_search_course_by_course_idx'],
    ['course', 'desc', 'dispatch_search_course_by_course_idx'],
  ] as const)(
    'takes a shallow page of a search sorted by %s %s from the first rows of each group, in order on its index',
    async (sort, order, index) => {
      const nodes = await nodesOf(pageStatement(false, fields, filter, sets, sort, order, 50, 0, counts))
      // Under a Limit, the group's index walked in the page's order: no sort of the group's rows.
      const limits = nodes.filter((node) => node['Node Type'] === 'Limit')
      const grouped = limits.find((node) =>
        node.Plans?.some((child) => child['Node Type'] === 'Index Only Scan' && child['Index Name'] === index),
      )
      expect(grouped, 'a Limit over an Index Only Scan of the group index').toMatchObject({ 'Node Type': 'Limit' })
    },
  )

  it.each([
    ['client', 'dispatch_list_client_idx'],
    ['course', 'dispatch_list_course_idx'],
  ] as const)('walks a page of the %s sort over its index alone, lowering nothing', async (sort, index) => {
    const counts = { matches: 6000, scope: 6000 }
    const nodes = await nodesOf(pageStatement(false, fields, live, null, sort, 'desc', 50, 1000, counts))
    expect(nodes).toContainEqual(expect.objectContaining({ 'Node Type': 'Index Only Scan', 'Index Name': index }))
    expect(nodes.flatMap((node) => node['Sort Key'] ?? []).join(' ')).not.toMatch(/lower\(/)
  })
})

describe('a staff search summary', () => {
  /** The summary's plan as run, with how often each node ran ('Actual Loops'). */
  async function ranOf(term: string) {
    const search = termMatch(term)
    const summary = staffSearchSummarySql({ status: 'all', search }, search, { opaque: true })
    const [row] = rowsOf<{ 'QUERY PLAN': [{ Plan: PlanNode }] | string }>(
      await t.database.db.execute(sql`explain (analyze, costs off, format json) ${summary}`),
    )
    const nodes = planNodes(row!['QUERY PLAN']) as (PlanNode & { 'Actual Loops': number })[]
    return (table: string) =>
      nodes.filter((node) => node['Relation Name'] === table).reduce((n, node) => n + node['Actual Loops'], 0)
  }

  it.each([true, false])(
    'lowers the term once for its look-ups, not for every course and company compared (opaque: %s)',
    async (opaque) => {
      for (const term of ['Plan Course', 'PL']) {
        const search = termMatch(term)
        const summary = staffSearchSummarySql({ status: 'all', search }, search, { opaque })
        const [row] = rowsOf<{ 'QUERY PLAN': [{ Plan: PlanNode }] | string }>(
          await t.database.db.execute(sql`explain (verbose, costs off, format json) ${summary}`),
        )
        const lookUps = planNodes(row!['QUERY PLAN']).filter((node) =>
          ['course', 'company'].includes(node['Relation Name'] ?? ''),
        )
        expect(lookUps.map((node) => node['Relation Name']).sort()).toEqual(['company', 'course'])
        for (const node of lookUps) {
          // The sub-select's value as it is: `$0` on PostgreSQL 15, `(InitPlan 1).col1` on later ones.
          expect(node.Filter).toMatch(/_key (~~|~) (\$\d+|\(InitPlan \d+\)\.col\d+)\)/)
          expect(node.Filter).not.toMatch(/lower\(/)
        }
      }
    },
  )

  it("reads no course's kept sums for a term that names companies only, nor a company's for one naming courses only", async () => {
    const companiesOnly = await ranOf('plan company')
    expect(companiesOnly('dispatch_summary')).toBeGreaterThan(0)
    expect(companiesOnly('dispatch_course_summary')).toBe(0)
    const coursesOnly = await ranOf('plan course')
    expect(coursesOnly('dispatch_course_summary')).toBeGreaterThan(0)
    expect(coursesOnly('dispatch_summary')).toBe(0)
  })
})
