import { beforeAll, describe, expect, it, vi } from 'vitest'
import { sql } from 'drizzle-orm'
import type { Learner, LearnerListResponse } from '@portal/shared'
import { searchWalkRows } from '../../db/search'
import { insertDispatches, insertRegistrations } from '../dispatches/dispatches.test-data'
import { createLearnersRepository } from './learners.repository'
import { createLearnersService } from './learners.service'
import { LEARNER_SEARCH_GATHER_ROWS, learnerTotalsQuery } from './learners-search.sql'
import { emails, person, useLearnersApp } from './learners.test-support'

/** On a company larger than the learner search's cap: pages walked or from the matches. */
const { app, list } = useLearnersApp()

describe('GET /api/learners: a company past the search cap', () => {
  const BULK = 1_100
  /**
   * Learners the search "bulk" does not match, first by name and e-mail, last by time descending:
   * more than any page's walk reaches, so such an order sends the search to its matches.
   */
  const OTHERS = 2_100
  const collect = async (query: string, rows: number) => {
    const seen: string[] = []
    for (let page = 1; page <= Math.ceil(rows / 100); page += 1) {
      seen.push(...emails(await list(`companyId=ln-big&pageSize=100&page=${page}&${query}`)))
    }
    return seen
  }
  const isBulk = (email: string) => email.startsWith('bulk')
  const learnersOf = (rowsJson: string | null) => JSON.parse(rowsJson ?? 'null') as Learner[]

  beforeAll(async () => {
    await insertDispatches(app.t.database.db, [{ id: 'ln-big-d', destinationId: 'ln-big', courseId: 'ln-bc' }])
    // Two "bulk" learners in three have started; times repeat so the sort's tie-break shows.
    await insertRegistrations(app.t.database.db, [
      ...Array.from({ length: BULK }, (_, i) => ({
        id: `ln-big-r${i}`,
        dispatchId: 'ln-big-d',
        ...person(`Bulk${i % 37}`, `Person${i}`, `bulk${i}@example.test`),
        completionStatus: (['completed', 'incomplete', 'not attempted'] as const)[i % 3],
        totalSecondsTracked: i % 50,
      })),
      ...Array.from({ length: OTHERS }, (_, i) => ({
        id: `ln-big-o${i}`,
        dispatchId: 'ln-big-d',
        ...person(`Alpha${i}`, 'Other', `alpha${i}@example.test`),
        completionStatus: 'completed' as const,
        totalSecondsTracked: 1_000,
      })),
    ])
  }, 120_000)

  // The pages of an order that puts the matches first come from the walk; an order that puts
  // the others first sends the search to its matches.
  it('pages a search past the cap in the list’s order, walked or from its matches', async () => {
    expect(searchWalkRows(1_000)).toBeLessThan(OTHERS)
    for (const sort of [
      'sort=name',
      'sort=name&order=desc',
      'sort=email&order=asc',
      'sort=totalTime&order=desc',
      'sort=totalTime&order=asc',
    ]) {
      const unsearched = await collect(sort, BULK + OTHERS)
      expect(unsearched).toHaveLength(BULK + OTHERS)
      const first = await list(`companyId=ln-big&pageSize=100&search=bulk&${sort}`)
      expect([first.pagination.totalItems, first.totalCapped]).toEqual([1_000, true])
      // Pages stop at the cap (the list says "1,000+").
      expect(await collect(`search=bulk&${sort}`, 1_000)).toEqual(unsearched.filter(isBulk).slice(0, 1_000))
    }
  })

  // A search with a status, past the cap: its pages come from the walk of the status's order.
  it('pages a search with a status past the cap as the status list has them', async () => {
    for (const sort of ['sort=name', 'sort=totalTime&order=asc', 'sort=completed&order=desc']) {
      const completed = await collect(`status=completed&${sort}`, BULK + OTHERS)
      // A third of the bulk learners, and every other one.
      expect(completed).toHaveLength(Math.ceil(BULK / 3) + OTHERS)
      const first = await list(`companyId=ln-big&pageSize=100&search=example&status=completed&${sort}`)
      expect([first.pagination.totalItems, first.totalCapped]).toEqual([1_000, true])
      expect(await collect(`search=example&status=completed&${sort}`, 1_000)).toEqual(completed.slice(0, 1_000))
    }
  })

  it('gathers the matches of a term once for its total and page, unless they are more than it gathers', async () => {
    const learners = createLearnersRepository(app.t.database.db)
    const byName = await collect('sort=name', BULK + OTHERS)
    // "bulk": 1,100 matches, all gathered: the total at the cap, the page sorted from them.
    const bulk = await learners.gather(
      { companyId: 'ln-big', search: 'bulk' },
      { sort: 'name', order: 'asc' },
      100,
      900,
    )
    expect(bulk.totals).toEqual({ total: 1_000, capped: true })
    expect(learnersOf(bulk.rowsJson).map((r) => r.email)).toEqual(byName.filter(isBulk).slice(900, 1_000))
    // "example": every learner, more than gathered: no page from the gathering...
    expect(BULK + OTHERS).toBeGreaterThan(LEARNER_SEARCH_GATHER_ROWS)
    const every = await learners.gather(
      { companyId: 'ln-big', search: 'example' },
      { sort: 'name', order: 'asc' },
      100,
      0,
    )
    expect(every).toMatchObject({ totals: { total: 1_000, capped: true }, rowsJson: null })
    // ...and the list's pages of it, read the other way, are still the list's order.
    expect(await collect('search=example&sort=name', 1_000)).toEqual(byName.slice(0, 1_000))
  })

  it('reads a kept search that one gathering does not answer as a filter, without gathering or probing again', async () => {
    // The learners service with its caches on, counting what it asks of the repository.
    const repository = createLearnersRepository(app.t.database.db)
    const gather = vi.spyOn(repository, 'gather')
    const sparse = vi.spyOn(repository, 'sparse')
    const asked = {
      get gather() {
        return gather.mock.calls.length
      },
      get sparse() {
        return sparse.mock.calls.length
      },
    }
    const service = createLearnersService(
      {
        db: app.t.database.db,
        learners: repository,
        activity: { record: async () => {} },
        log: { error() {} },
      },
      { cache: true },
    )
    const page = async (query: string) => {
      const q: Record<string, string | number> = {
        companyId: 'ln-big',
        pageSize: 50,
        order: 'asc',
        ...Object.fromEntries(new URLSearchParams(query)),
      }
      const answer = await service.list({ role: 'admin', companyId: null }, { ...q, page: Number(q.page) } as never)
      return JSON.parse(answer.text()) as LearnerListResponse
    }
    const byName = await collect('sort=name', BULK + OTHERS)
    const byTime = await collect('sort=totalTime', BULK + OTHERS)
    // The service's kept figures are the database's (as the app's own service keeps them): terms
    // and page sizes the tests above did not ask for. "test", every learner: the first page finds
    // them more than one gathering reads...
    const first = await page('search=test&sort=name&page=1')
    expect(first.learners.map((l) => l.email)).toEqual(byName.slice(0, 50))
    expect(first.pagination.totalItems).toBe(1_000)
    expect(asked.gather).toBe(1)
    // ...so its other pages and orders are read without gathering its matches again.
    expect((await page('search=test&sort=name&page=3')).learners.map((l) => l.email)).toEqual(byName.slice(100, 150))
    expect((await page('search=test&sort=totalTime&page=2')).learners.map((l) => l.email)).toEqual(
      byTime.slice(50, 100),
    )
    expect(asked.gather).toBe(1)
    // "bulk", 1,100 matches, is answered by its gathering: another page gathers again.
    await page('search=bulk&sort=name&page=1')
    const bulk = await page('search=bulk&sort=name&page=2')
    expect(bulk.learners.map((l) => l.email)).toEqual(byName.filter(isBulk).slice(50, 100))
    expect(asked.gather).toBe(3)
    // A common short term is probed once, then paged as a filter.
    const ex = await page('search=ex&sort=name&page=1')
    expect([ex.pagination.totalItems, asked.sparse]).toEqual([1_000, 1])
    expect((await page('search=ex&sort=name&page=2')).learners.map((l) => l.email)).toEqual(byName.slice(50, 100))
    expect([asked.sparse, asked.gather]).toEqual([1, 3])
  })

  it('lists a status sorted by its own count, both ways, as the unfiltered list has them', async () => {
    const unfiltered = await collect('sort=notStarted&order=desc', BULK + OTHERS)
    const notStarted = new Set(
      Array.from({ length: BULK }, (_, i) => i)
        .filter((i) => i % 3 === 2)
        .map((i) => `bulk${i}@example.test`),
    )
    const wanted = unfiltered.filter((e) => notStarted.has(e))
    expect(wanted).toHaveLength(notStarted.size)
    expect(await collect('status=not+attempted&sort=notStarted&order=desc', wanted.length)).toEqual(wanted)
    // Every one of them has one not started: the tie-break orders them, reversed.
    expect(await collect('status=not+attempted&sort=notStarted&order=asc', wanted.length)).toEqual(
      [...wanted].reverse(),
    )
  })

  it('counts a search past the cap over the company’s own rows, never by scanning the table', async () => {
    // Other companies' learners around ln-big's, so a scan of the table reads theirs too.
    for (const co of ['ln-pre', 'ln-post']) {
      await insertDispatches(app.t.database.db, [{ id: `${co}-d`, destinationId: co, courseId: 'ln-bc' }])
      await insertRegistrations(
        app.t.database.db,
        Array.from({ length: 3_000 }, (_, i) => ({
          id: `${co}-r${i}`,
          dispatchId: `${co}-d`,
          ...person(`Bulk${i}`, 'Else', `bulk${i}@${co}.test`),
        })),
      )
    }
    await app.t.database.db.execute(sql`analyze company_learner`)
    const query = learnerTotalsQuery(app.t.database.db, { companyId: 'ln-big', search: 'bu' })
    const plan = (await app.t.database.db.execute(sql`explain ${query}`)) as unknown as {
      rows: { 'QUERY PLAN': string }[]
    }
    const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n')
    expect(text).toContain('company_learner')
    expect(text).not.toMatch(/Seq Scan on company_learner\b/)
    const [row] = await query
    expect(row!.total).toBe(1_001) // the cap and one: the list says "1,000+"
  }, 120_000)

  it('counts a rare short term through the trigram index and a common one by walking to the cap', async () => {
    await insertRegistrations(
      app.t.database.db,
      Array.from({ length: 40 }, (_, i) => ({
        id: `ln-big-z${i}`,
        dispatchId: 'ln-big-d',
        ...person('Zora', `Quill${i}`, `zora${i}@example.test`),
      })),
    )
    await app.t.database.db.execute(sql`analyze company_learner`)
    const explain = async (search: string) => {
      const query = learnerTotalsQuery(app.t.database.db, { companyId: 'ln-big', search })
      const plan = (await app.t.database.db.execute(sql`explain (analyze, costs off) ${query}`)) as unknown as {
        rows: { 'QUERY PLAN': string }[]
      }
      const [row] = await query
      return { total: row!.total, plan: plan.rows.map((r) => r['QUERY PLAN']).join('\n') }
    }
    // The walk to the cap is the only Limit of 1,001 rows; the probe reads the first 1,000.
    const walkSkipped = /Limit \(never executed\)/
    const rare = await explain('zo') // 40 of 3,240 learners: under one in ten of the probe
    expect(rare.total).toBe(40)
    expect(rare.plan).toMatch(walkSkipped)
    const common = await explain('bu') // 1,100 of them
    expect(common.total).toBe(1_001)
    expect(common.plan).not.toMatch(walkSkipped)
    // The list gathers the rare one's every match in one statement, and pages the common one as before.
    const learners = createLearnersRepository(app.t.database.db)
    expect(await learners.sparse({ companyId: 'ln-big', search: 'zo' })).toBe(true)
    expect(await learners.sparse({ companyId: 'ln-big', search: 'bu' })).toBe(false)
    const zora = Array.from({ length: 40 }, (_, i) => `zora${i}@example.test`).sort((a, b) =>
      `zora quill${a.slice(4, -13)}`.localeCompare(`zora quill${b.slice(4, -13)}`),
    )
    const page = await list('companyId=ln-big&search=zo&sort=name&pageSize=25&page=2')
    expect([page.pagination.totalItems, page.totalCapped]).toEqual([40, false])
    expect(emails(page)).toEqual(zora.slice(25))
  })
})
