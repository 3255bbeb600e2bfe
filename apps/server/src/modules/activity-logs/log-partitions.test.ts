import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import type { LogListResponse } from '@portal/shared'
import { buildTestApp, type TestContext } from '../../test/helpers'
import { ensureLogPartitions } from './log-partitions'
import { createLogsRepository } from './logs.repository'
import { insertLogs } from './logs.test-support'

let t: TestContext
let admin: { 'x-auth-token': string }

beforeAll(async () => {
  t = await buildTestApp()
  admin = (await t.loginAs('admin')).headers
})
afterAll(async () => t.close())

const rows = async <T>(query: ReturnType<typeof sql>) =>
  ((await t.database.db.execute(query)) as unknown as { rows: T[] }).rows

/** Where each row of a month lives: the default partition or the month's own. */
const partitionsOf = (from: string, before: string) =>
  rows<{ part: string; n: number }>(sql`
    select tableoid::regclass::text as part, count(*)::int as n from activity_log
    where created_at >= ${from}::timestamptz and created_at < ${before}::timestamptz group by 1 order by 1`)

describe('activity log month partitions (migration 0014)', () => {
  it('keeps rows of a month without a partition in the default one, and moves them when the month is made', async () => {
    await insertLogs(t.database.db, [
      { createdAt: new Date('2031-05-03T10:00:00Z'), action: 'LOGOUT', details: { message: 'far ahead one' } },
      { createdAt: new Date('2031-05-31T23:59:59.999Z'), action: 'LOGOUT', details: { message: 'far ahead two' } },
      { createdAt: new Date('2031-06-01T00:00:00Z'), action: 'LOGOUT', details: { message: 'far ahead three' } },
    ])
    expect(await partitionsOf('2031-05-01', '2031-07-01')).toEqual([{ part: 'activity_log_default', n: 3 }])
    const daysBefore = await rows(
      sql`select day::text, rows from activity_log_day where day >= '2031-05-01' order by 1, 2`,
    )

    // Last month to two months ahead of "now" (June 2031): May to August.
    expect(await ensureLogPartitions(createLogsRepository(t.database.db), new Date('2031-06-15T12:00:00Z'))).toBe(4)
    expect(await partitionsOf('2031-05-01', '2031-07-01')).toEqual([
      { part: 'activity_log_p203105', n: 2 },
      { part: 'activity_log_p203106', n: 1 },
    ])
    // Moving rows between partitions is not a change of the log: the day counts stay.
    expect(
      await rows(sql`select day::text, rows from activity_log_day where day >= '2031-05-01' order by 1, 2`),
    ).toEqual(daysBefore)
    // Made already: nothing to do the second time.
    expect(await ensureLogPartitions(createLogsRepository(t.database.db), new Date('2031-06-15T12:00:00Z'))).toBe(0)

    const list = await t.app.inject({
      method: 'GET',
      url: '/api/logs?startDate=2031-05-01&endDate=2031-06-30&searchTerm=far%20ahead',
      headers: admin,
    })
    const body = list.json<LogListResponse>()
    expect(body.totalLogs).toBe(3)
    expect(body.logs.map((l) => (l.details as { message: string }).message)).toEqual([
      'far ahead three',
      'far ahead two',
      'far ahead one',
    ])
    // New rows of the month go straight to its partition.
    await insertLogs(t.database.db, [{ createdAt: new Date('2031-07-04T00:00:00Z'), action: 'LOGOUT' }])
    expect(await partitionsOf('2031-07-01', '2031-08-01')).toEqual([{ part: 'activity_log_p203107', n: 1 }])
  })
})
