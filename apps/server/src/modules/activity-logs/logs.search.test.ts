import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import { LOG_SEARCH_COUNT_CAP, type LogListResponse } from '@portal/shared'
import { buildTestApp, type TestContext } from '../../test/helpers'
import { createActivityRepository } from './activity.repository'
import { createLogsRepository } from './logs.repository'
import { createLogsService } from './logs.service'
import { FIRST_SLICE_DAYS, SEARCH_SCAN_ROWS_SCATTERED, firstSpanAtRate, nextSpan } from './logs.slices'

let t: TestContext
let admin: { 'x-auth-token': string }
const ROWS = 8_000
const DOTTED = 600
const ADA = '00000000-0000-4000-8000-0000000000ad'

/**
 * A search is looked for in slices of time back from now, each slice giving its
 * matches newest first (scanned on the time index when it holds few rows, else found through the
 * trigram index); those matches are both the total and the page. 8,000 rows over 400 days, two
 * sharing each instant, 7,200 of them of one action: more than SEARCH_SCAN_ROWS_SCATTERED, so
 * with that action a slice reaching far enough back takes the trigram index and a nearer one the
 * scan.
 */
beforeAll(async () => {
  t = await buildTestApp()
  admin = (await t.loginAs('admin')).headers
  await t.database.db.execute(sql`
    insert into activity_log (created_at, user_id, actor_name, actor_email, action, details, ip_address)
    select now() - interval '1 minute' - (g / 2) * interval '2 hours 24 minutes',
      case when g % 5 = 0 then ${ADA}::uuid end,
      case when g % 5 = 0 then 'Ada Admin' end,
      case when g % 5 = 0 then 'ada@example.test' end,
      case when g % 10 = 9 then 'LOGOUT' else 'PAGE_VIEWED' end,
      jsonb_build_object('pathname', '/row/' || g || case when g % 2 = 0 then '/needle' else '' end
        || case when g % 97 = 0 then '/rare' else '' end),
      '10.0.' || (g % 7) || '.1'
    from generate_series(1, ${ROWS}) as g`)
  // Hosts that differ only by where their dots are (a term with a dot is looked up
  // without its dots, then compared as typed).
  await t.database.db.execute(sql`
    insert into activity_log (created_at, action, details, ip_address)
    select now() - interval '3 minutes' - g * interval '16 hours', 'PAGE_VIEWED',
      jsonb_build_object('host', case when g % 2 = 0 then 'srv.12.34' else 'srv1.2.34' end), null
    from generate_series(1, ${DOTTED}) as g`)
}, 120_000)
afterAll(async () => t.close())

const list = async (query: string) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/logs?${query}`, headers: admin })
  expect(res.statusCode, res.body).toBe(200)
  return res.json<LogListResponse>()
}

/** The ids SQL finds for a term and other conditions, newest first, up to the cap. */
async function expected(term: string, where = sql`true`): Promise<number[]> {
  const result = (await t.database.db.execute(sql`
    select id from activity_log
    where search_text like ${`%${term}%`} and action <> 'LOGIN_SUCCESS' and ${where}
    order by created_at desc, id desc limit ${LOG_SEARCH_COUNT_CAP}`)) as unknown as {
    rows: { id: number | string }[]
  }
  return result.rows.map((r) => Number(r.id))
}

/** Every page of a query, its ids in order, and the figures of its first page. */
async function allPages(query: string, limit: number) {
  const first = await list(`${query}&limit=${limit}&page=1`)
  const ids = first.logs.map((l) => l.id)
  for (let page = 2; page <= first.totalPages; page += 1) {
    ids.push(...(await list(`${query}&limit=${limit}&page=${page}`)).logs.map((l) => l.id))
  }
  return { ids, total: first.totalLogs, capped: first.totalLogsCapped }
}

describe('GET /api/logs: a search over slices of time', () => {
  it('assumes the slices this data is made for', () => {
    expect(FIRST_SLICE_DAYS).toBe(1)
    expect(SEARCH_SCAN_ROWS_SCATTERED).toBeLessThan(7_200)
  })

  it('finds a rare term in every slice: its exact total and its pages in order', async () => {
    const wanted = await expected('/rare')
    expect(wanted.length).toBe(Math.floor(ROWS / 97))
    expect(await allPages('searchTerm=/rare', 10)).toEqual({ ids: wanted, total: wanted.length, capped: false })
  })

  it('stops a common term at the cap, "1,000+", its pages the newest 1,000 in order', async () => {
    const wanted = await expected('needle')
    expect(wanted).toHaveLength(LOG_SEARCH_COUNT_CAP)
    expect(await allPages('searchTerm=needle', 50)).toEqual({ ids: wanted, total: LOG_SEARCH_COUNT_CAP, capped: true })
  })

  it('pages a search with an action, where one slice takes the trigram index', async () => {
    const wanted = await expected('needle', sql`action = 'PAGE_VIEWED'`)
    expect(wanted).toHaveLength(LOG_SEARCH_COUNT_CAP)
    expect(await allPages('searchTerm=needle&action=PAGE_VIEWED', 200)).toEqual({
      ids: wanted,
      total: LOG_SEARCH_COUNT_CAP,
      capped: true,
    })
    const rare = await expected('/rare', sql`action = 'PAGE_VIEWED'`)
    expect(await allPages('searchTerm=/rare&action=PAGE_VIEWED', 25)).toEqual({
      ids: rare,
      total: rare.length,
      capped: false,
    })
  })

  it('finds a term with dots as typed, through the index of the text without dots', async () => {
    // "srv.12.3" without its dots is also in "srv1.2.34": only the rows as typed count.
    const viewed = sql`action = 'PAGE_VIEWED'`
    const hosts = await expected('srv.12.3', viewed)
    expect(hosts).toHaveLength(DOTTED / 2)
    // An IP address, past the cap.
    const ip = await expected('10.0.3.1', viewed)
    expect(ip).toHaveLength(LOG_SEARCH_COUNT_CAP)
    for (const [query, ids, capped] of [
      ['searchTerm=SRV.12.3&action=PAGE_VIEWED', hosts, false],
      ['searchTerm=10.0.3.1&action=PAGE_VIEWED', ip, true],
    ] as const) {
      expect(await allPages(query, 100)).toEqual({ ids, total: ids.length, capped })
    }
  })

  it('pages a search with a user and an action, and within a date window', async () => {
    const byAda = sql`user_id = ${ADA}::uuid and action = 'PAGE_VIEWED'`
    const wanted = await expected('needle', byAda)
    expect(wanted.length).toBeGreaterThan(100)
    expect(await allPages(`searchTerm=needle&userId=${ADA}&action=PAGE_VIEWED`, 50)).toEqual({
      ids: wanted,
      total: wanted.length,
      capped: false,
    })
    const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10)
    const window = sql`created_at >= ${`${day(200)}T00:00:00Z`}::timestamptz and created_at < ${`${day(100)}T00:00:00Z`}::timestamptz + interval '1 day'`
    const inWindow = await expected('/rare', window)
    expect(inWindow.length).toBeGreaterThan(5)
    expect(await allPages(`searchTerm=/rare&startDate=${day(200)}&endDate=${day(100)}`, 5)).toEqual({
      ids: inWindow,
      total: inWindow.length,
      capped: false,
    })
  })
})

describe('a search whose total is kept while the log within its filters is unchanged', () => {
  /** The logs service over the test's database, with the matches each slice asked for. */
  function serviceAsking(options: { cache?: boolean } = {}) {
    const repository = createLogsRepository(t.database.db)
    const asked: number[] = []
    const logs = createLogsService(
      {
        logs: {
          ...repository,
          matches: (filter, limit, way) => {
            asked.push(limit)
            return repository.matches(filter, limit, way)
          },
        },
        activity: createActivityRepository(t.database.db),
        log: { error() {} },
      },
      options,
    )
    const read = async (searchTerm: string, page: number, filters: { userId?: string; action?: string } = {}) => {
      const answer = await logs.list({ page, limit: 50, getAll: false, searchTerm, ...filters } as never, {
        actor: null,
        ip: '127.0.0.1',
      })
      return JSON.parse(answer.text()) as LogListResponse
    }
    return { asked, read }
  }

  it('gathers a later page only up to its end, and reads nothing for a page past the total', async () => {
    const { asked, read } = serviceAsking()
    const wanted = await expected('10.0.3.1')
    expect(wanted).toHaveLength(LOG_SEARCH_COUNT_CAP)
    const first = await read('10.0.3.1', 1)
    expect([first.totalLogs, first.totalLogsCapped]).toEqual([LOG_SEARCH_COUNT_CAP, true])
    expect(first.logs.map((l) => l.id)).toEqual(wanted.slice(0, 50))
    expect(asked[0]).toBe(LOG_SEARCH_COUNT_CAP + 1)

    asked.length = 0
    const second = await read('10.0.3.1', 2)
    expect([second.totalLogs, second.totalLogsCapped, second.totalPages]).toEqual([LOG_SEARCH_COUNT_CAP, true, 20])
    expect(second.logs.map((l) => l.id)).toEqual(wanted.slice(50, 100))
    expect(asked[0]).toBe(100)
    expect(Math.max(...asked)).toBeLessThanOrEqual(100)

    asked.length = 0
    const past = await read('10.0.3.1', 21)
    expect([past.logs, past.totalLogs, past.totalLogsCapped]).toEqual([[], LOG_SEARCH_COUNT_CAP, true])
    expect(asked).toEqual([])
  })

  it('counts a row written in the range at once', async () => {
    const { read } = serviceAsking()
    const before = await read('/rare', 1)
    expect(before.totalLogs).toBe((await expected('/rare')).length)
    await t.database.db.execute(sql`
      insert into activity_log (created_at, action, details)
      values (now(), 'PAGE_VIEWED', jsonb_build_object('pathname', '/written-since/rare'))`)
    const after = await read('/rare', 1)
    expect(after.totalLogs).toBe(before.totalLogs + 1)
    expect(after.logs[0]!.details).toEqual({ pathname: '/written-since/rare' })
    expect(after.logs.map((l) => l.id)).toEqual((await expected('/rare')).slice(0, 50))
  })

  it("keeps the number of a search with a user and an action by the user's day counts", async () => {
    const { asked, read } = serviceAsking()
    const filters = { userId: ADA, action: 'PAGE_VIEWED' }
    const wanted = await expected('needle', sql`user_id = ${ADA}::uuid and action = 'PAGE_VIEWED'`)
    const first = await read('needle', 1, filters)
    expect([first.totalLogs, first.logs.map((l) => l.id)]).toEqual([wanted.length, wanted.slice(0, 50)])
    asked.length = 0
    const second = await read('needle', 2, filters)
    expect([second.totalLogs, second.logs.map((l) => l.id)]).toEqual([wanted.length, wanted.slice(50, 100)])
    expect(Math.max(...asked)).toBeLessThanOrEqual(100)
    // A row of the same user with another action changes the user's counts: counted again.
    await t.database.db.execute(sql`
      insert into activity_log (created_at, user_id, actor_name, action, details)
      values (now(), ${ADA}::uuid, 'Ada Admin', 'LOGOUT', jsonb_build_object('pathname', '/needle'))`)
    asked.length = 0
    expect((await read('needle', 2, filters)).totalLogs).toBe(wanted.length)
    expect(asked[0]).toBe(LOG_SEARCH_COUNT_CAP + 1)
  })

  it('gathers the whole count again for every page when reads are not cached', async () => {
    const { asked, read } = serviceAsking({ cache: false })
    await read('10.0.3.1', 1)
    asked.length = 0
    const second = await read('10.0.3.1', 2)
    expect(second.totalLogs).toBe(LOG_SEARCH_COUNT_CAP)
    expect(asked[0]).toBe(LOG_SEARCH_COUNT_CAP + 1)
  })
})

describe('the next slice of a search (nextSpan)', () => {
  // 30 days of 1,000 rows each, newest first; the search ends at the end of 2026-11-26.
  const days = Array.from({ length: 30 }, (_, i) => ({
    day: new Date(Date.UTC(2026, 10, 26 - i)).toISOString().slice(0, 10),
    rows: 1_000,
  }))
  const end = Date.parse('2026-11-27T00:00:00.000Z')
  const before = new Date('2026-11-26T00:00:00.000Z') // after a first slice of one day

  it('spans the days that should hold the matches still wanted, a quarter over', () => {
    // 100 matches in 1,000 rows: 901 more at that rate are in about 8,900 rows, 11,150 with the
    // margin: twelve more days, so the slice reaches back thirteen days from the end.
    expect(nextSpan(days, 1, 100, 1_000, before, end)).toBe(13)
    // Nearly there: one more day would do, and the span at least doubles.
    expect(nextSpan(days, 1, 900, 1_000, before, end)).toBe(2)
    expect(nextSpan(days, 8, 990, 8_000, new Date('2026-11-19T00:00:00.000Z'), end)).toBe(16)
  })

  it('sizes the first slice of a search with a known number of matches from its rate', () => {
    // 300 matches in 30,000 rows: a page's 50 are in about 5,000 rows, 6,250 with the margin:
    // the seven newest days.
    expect(firstSpanAtRate(days, 300, 50, undefined, end)).toBe(7)
    // A page of the 101st to 150th: the newest nineteen days.
    expect(firstSpanAtRate(days, 300, 150, undefined, end)).toBe(19)
    // Three matches in all: the whole range at once.
    expect(firstSpanAtRate(days, 3, 3, undefined, end)).toBeNull()
  })

  it('takes the rest at once when the term is too rare to reach the cap in it', () => {
    expect(nextSpan(days, 1, 10, 1_000, before, end)).toBeNull()
    expect(nextSpan(days, 1, 0, 1_000, before, end)).toBeNull()
  })
})
