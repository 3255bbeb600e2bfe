import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { desc, eq } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../app'
import type { Database, Db } from '../../db/client'
import { activityLog } from '../../db/schema'
import { hashPassword } from '../../lib/passwords'
import { EXPORT_CHUNK_ROWS } from '../../modules/activity-logs/logs.service'
import { insertLogs } from '../../modules/activity-logs/logs.test-support'
import { createUsersRepository } from '../../modules/users/users.repository'
import { TEST_PASSWORD, testConfig } from '../helpers'
import { createTestDatabase } from '../test-database'

/**
 * The CSV export never ends as a file that looks complete but is not. Its first
 * rows are read before the answer starts, so a failing query is a JSON error; a failure after
 * the first byte destroys the connection without HTTP's closing chunk, which browsers (and
 * fetch) report as a failed download. The database is made to fail on the Nth raw query.
 */
let database: Database
let app: FastifyInstance
let base: string
let token: string
/** Raw queries (the export's chunks) allowed before the database "fails"; null: never fails. */
let failAfter: number | null = null
let executes = 0

beforeAll(async () => {
  database = await createTestDatabase()
  const db = new Proxy(database.db, {
    get(target, prop) {
      if (prop === 'execute') {
        return async (...args: Parameters<Db['execute']>) => {
          executes += 1
          if (failAfter !== null && executes > failAfter) throw new Error('connection reset (simulated)')
          return target.execute(...args)
        }
      }
      const value = Reflect.get(target, prop, target) as unknown
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value
    },
  })
  app = await buildApp({ config: testConfig(), logger: false, database: { ...database, db } })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = app.server.address()
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
  await createUsersRepository(database.db).insert({
    email: 'exporter@example.test',
    username: 'exporter',
    name: null,
    passwordHash: await hashPassword(TEST_PASSWORD),
    role: 'admin',
    companyId: null,
  })
  const login = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: 'exporter@example.test', password: TEST_PASSWORD },
  })
  token = login.json<{ accessToken: string }>().accessToken
  const start = Date.parse('2021-01-01T00:00:00.000Z')
  await insertLogs(
    database.db,
    Array.from({ length: EXPORT_CHUNK_ROWS + 50 }, (_, i) => ({
      createdAt: new Date(start + i * 1000),
      action: 'PAGE_VIEWED',
      details: `row ${i}`,
    })),
  )
})
afterAll(async () => {
  await app?.close()
  await database?.close()
})

const exportCsv = () =>
  fetch(`${base}/api/logs/export.csv?startDate=2021-01-01&endDate=9999-12-31`, { headers: { 'x-auth-token': token } })

const lastExport = async () =>
  (
    await database.db
      .select()
      .from(activityLog)
      .where(eq(activityLog.action, 'LOGS_EXPORTED'))
      .orderBy(desc(activityLog.id))
      .limit(1)
  )[0]

describe('GET /api/logs/export.csv when the database fails', () => {
  it('control: the whole file arrives, to the last day the filters take', async () => {
    failAfter = null
    const res = await exportCsv()
    expect(res.status).toBe(200)
    const lines = (await res.text()).trimEnd().split('\r\n')
    expect(lines.filter((l) => l.includes(',PAGE_VIEWED,'))).toHaveLength(EXPORT_CHUNK_ROWS + 50)
    // The seeded rows and the exporter's sign-in.
    expect((await lastExport())!.details).toMatchObject({ completed: true, rowCount: EXPORT_CHUNK_ROWS + 51 })
  })

  it('a failure before the first rows is a JSON error, not a CSV file', async () => {
    executes = 0
    failAfter = 0
    const res = await exportCsv()
    failAfter = null
    expect(res.status).toBe(500)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    expect(((await res.json()) as { message: string }).message).toBe('Something went wrong. Please try again.')
  })

  it('a failure after the first byte aborts the download: the client sees an error, never a short file', async () => {
    executes = 0
    failAfter = 1 // the first chunk is read, the second query fails mid-stream
    const res = await exportCsv()
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/)
    await expect(res.text()).rejects.toThrow()
    failAfter = null
    expect((await lastExport())!.details).toMatchObject({ completed: false, rowCount: EXPORT_CHUNK_ROWS })
  })
})
