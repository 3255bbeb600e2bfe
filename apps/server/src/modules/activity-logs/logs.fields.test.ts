import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import { Type } from 'typebox'
import { Value } from 'typebox/value'
import { LogEntrySchema, LogListResponseSchema, LogUserSchema, ROLES, type LogListResponse } from '@portal/shared'
import { activityLog } from '../../db/schema'
import { buildTestApp, type TestContext } from '../../test/helpers'
import { logEntryFields } from './logs.fields'
import { toLogEntry } from './logs.service'
import { insertLogs } from './logs.test-support'

/**
 * A log entry's fields are declared once (logs.fields.ts), and both the log list's JSON rows
 * (written by PostgreSQL) and toLogEntry() (a user's recent activity) are built from it. Every
 * entry the SQL writes must pass the route's schema with no key the schema does not name, and be
 * what toLogEntry() gives for the same row, keys in the same order.
 */
let t: TestContext
let admin: { 'x-auth-token': string }

/** The schemas with no key beyond the ones they name (TypeBox objects allow others by default). */
const ExactUser = Type.Object(LogUserSchema.properties, { additionalProperties: false })
const ExactEntry = Type.Object(
  { ...LogEntrySchema.properties, user: Type.Union([ExactUser, Type.Null()]) },
  { additionalProperties: false },
)

const at = (ms: number) => new Date(Date.UTC(2026, 2, 1, 9, 0, 0, ms))

beforeAll(async () => {
  t = await buildTestApp()
  const { user, headers } = await t.loginAs('admin')
  admin = headers
  await t.database.db.execute(sql`delete from activity_log`)
  await insertLogs(t.database.db, [
    { action: 'SYNC_RUN', createdAt: at(1), userId: null, actorName: null, actorEmail: null, details: null },
    { action: 'LOGIN', createdAt: at(2), userId: null, actorName: 'Name "only"', actorEmail: null, details: 'text' },
    {
      action: 'DISPATCH_DETAILS_LOADED',
      createdAt: at(3),
      userId: user.id,
      actorName: 'Zoë \\ 李',
      actorEmail: 'z@example.test',
      ipAddress: '10.1.2.3',
      details: { nested: { list: [1, 2.5, null, true] }, note: 'line\nbreak' },
    },
  ])
})
afterAll(async () => t.close())

describe('the log entry declared once (logs.fields.ts)', () => {
  it('declares LogEntrySchema: every key, in its order, null where it allows null, for every role', () => {
    const fields = logEntryFields.view().fields
    expect(fields.map((field) => field.name)).toEqual(Object.keys(LogEntrySchema.properties))
    for (const field of fields) {
      const schema = LogEntrySchema.properties[field.name as keyof typeof LogEntrySchema.properties]
      expect(Value.Check(schema, null), field.name).toBe(field.nullable === true)
    }
    const user = fields.find((field) => field.name === 'user')!
    expect(user.kind === 'object' && user.fields.map((field) => field.name)).toEqual(
      Object.keys(LogUserSchema.properties),
    )
    // Whoever reads the log reads every field of it.
    for (const role of ROLES) expect(logEntryFields.view(role).fields).toEqual(fields)
  })

  it('writes the entries toLogEntry() gives, valid against the schema', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/logs?limit=50', headers: admin })
    expect(res.statusCode, res.body).toBe(200)
    const body = res.json<LogListResponse>()
    expect(Value.Check(LogListResponseSchema, body)).toBe(true)
    expect(body.logs.map((entry) => entry.action)).toEqual(['DISPATCH_DETAILS_LOADED', 'LOGIN', 'SYNC_RUN'])
    const rows = await t.database.db.select().from(activityLog)
    for (const entry of body.logs) {
      expect(Value.Check(ExactEntry, entry), JSON.stringify(entry)).toBe(true)
      const row = rows.find((r) => r.id === entry.id)!
      // As text: the same keys, in the same order, with the same values.
      expect(JSON.stringify(entry)).toBe(JSON.stringify(toLogEntry(row)))
    }
    expect(body.logs.map((entry) => entry.user)).toEqual([
      { id: expect.any(String), name: 'Zoë \\ 李', email: 'z@example.test' },
      { id: null, name: 'Name "only"', email: null },
      null,
    ])
  })
})
