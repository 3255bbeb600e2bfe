import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { desc, sql } from 'drizzle-orm'
import { Value } from 'typebox/value'
import { LogListResponseSchema, type LogEntry, type LogListResponse } from '@portal/shared'
import { activityLog } from '../../db/schema'
import { buildTestApp, type TestContext } from '../../test/helpers'
import { toLogEntry } from './logs.service'
import { insertLogs, type LogInput } from './logs.test-support'

/**
 * The log entries are written as JSON by PostgreSQL (logs.repository.ts
 * entriesJsonSql). Each must be what toLogEntry() gives for the same row (the actor kept on the
 * row, no user for a system row, the details as stored), on every path: a page walked, a deep
 * page past whole days, a search's page read by key, and getAll.
 */
let t: TestContext
let admin: { 'x-auth-token': string }

const DETAILS = {
  note: 'He said "hi" \\ and left\nZoë 李 😀',
  nested: { list: [1, 2.5, -3, null, true], empty: {} },
  big: 1234567890,
}
const at = (day: number, ms: number) => new Date(Date.UTC(2026, 0, day, 12, 0, 0, ms))

const rows: LogInput[] = [
  { action: 'LOGIN', createdAt: at(20, 123), userId: null, actorName: 'Only Name', actorEmail: null, details: DETAILS },
  { action: 'SYNC_RUN', createdAt: at(20, 124), userId: null, actorName: null, actorEmail: null, details: null },
  {
    action: 'LOGIN',
    createdAt: at(19, 999),
    actorName: 'O\'Brien "Q"',
    actorEmail: 'ob@example.test',
    ipAddress: '10.0.0.1',
    details: 'text',
  },
  ...Array.from({ length: 70 }, (_, i) => ({
    action: i % 2 ? 'DISPATCH_DETAILS_LOADED' : 'LOGIN',
    createdAt: at(1 + (i % 15), i),
    actorName: `Person ${i}`,
    actorEmail: `person${i}@example.test`,
    ipAddress: i % 3 ? `192.168.1.${i}` : null,
    details: { dispatchId: `d-${i}`, page: i },
  })),
]

beforeAll(async () => {
  t = await buildTestApp()
  const { user, headers } = await t.loginAs('admin')
  admin = headers
  // The admin's own sign-in rows are removed: only the rows above are listed.
  await t.database.db.execute(sql`delete from activity_log`)
  await insertLogs(
    t.database.db,
    rows.map((row, i) => (i === 2 ? { ...row, userId: user.id } : row)),
  )
})
afterAll(async () => t.close())

/** Every row as toLogEntry gives it, newest first. */
async function expectedEntries(): Promise<Map<number, LogEntry>> {
  const all = await t.database.db.select().from(activityLog).orderBy(desc(activityLog.createdAt), desc(activityLog.id))
  return new Map(all.map((row) => [row.id, toLogEntry(row)]))
}

async function list(query: string): Promise<LogListResponse> {
  const res = await t.app.inject({ method: 'GET', url: `/api/logs?${query}`, headers: admin })
  expect(res.statusCode, res.body).toBe(200)
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
  const body = res.json<LogListResponse>()
  expect(Value.Check(LogListResponseSchema, body)).toBe(true)
  const expected = await expectedEntries()
  for (const entry of body.logs) expect(entry).toStrictEqual(expected.get(entry.id))
  return body
}

describe('log entries written by PostgreSQL', () => {
  it('are what toLogEntry gives: the actor on the row, no user for a system row, details as stored', async () => {
    const body = await list('page=1&limit=50')
    expect(body.totalLogs).toBe(73)
    const [system, named, known] = body.logs
    expect(named).toMatchObject({
      action: 'LOGIN',
      details: DETAILS,
      user: { id: null, name: 'Only Name', email: null },
    })
    expect(named!.createdAt).toBe('2026-01-20T12:00:00.123Z')
    expect(system).toMatchObject({ action: 'SYNC_RUN', details: null, user: null, ipAddress: null })
    expect(known).toMatchObject({ details: 'text', ipAddress: '10.0.0.1', user: { name: 'O\'Brien "Q"' } })
  })

  it('keep the order and the values on every path', async () => {
    const first = await list('page=1&limit=50')
    const second = await list('page=2&limit=50')
    expect(second.logs).toHaveLength(23)
    const ids = [...first.logs, ...second.logs].map((entry) => entry.id)
    expect(ids).toEqual([...(await expectedEntries()).keys()])
    const searched = await list('searchTerm=person1&limit=50')
    expect(searched.logs.length).toBeGreaterThan(0)
    expect(searched.logs.every((entry) => entry.user?.email?.startsWith('person1'))).toBe(true)
    const filtered = await list('action=DISPATCH_DETAILS_LOADED&startDate=2026-01-02&endDate=2026-01-09&limit=50')
    expect(filtered.logs.every((entry) => entry.action === 'DISPATCH_DETAILS_LOADED')).toBe(true)
    const all = await list('getAll=true')
    expect(all.logs).toHaveLength(73)
    const empty = await list('page=9&limit=50')
    expect(empty.logs).toEqual([])
  })
})
