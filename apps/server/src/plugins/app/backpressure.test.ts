import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../app'
import type { Database } from '../../db/client'
import { createTestDatabase } from '../../test/test-database'
import { testConfig } from '../../test/helpers'
import { BUSY_MESSAGE } from './backpressure'

let database: Database
let app: FastifyInstance
/** The pool queue the plugin sees: set by each test. */
let queued = 0

beforeAll(async () => {
  database = await createTestDatabase()
  app = await buildApp({
    config: testConfig({ databaseQueueLimit: 8 }),
    logger: false,
    database: { ...database, waiting: () => queued },
  })
  await app.ready()
})
afterAll(async () => {
  await app.close()
  await database.close()
})

describe('backpressure', () => {
  it('refuses new requests with 503 and Retry-After while more than DATABASE_QUEUE_LIMIT wait for a connection', async () => {
    queued = 9
    await expect
      .poll(async () => (await app.inject({ method: 'GET', url: '/api/auth/me' })).statusCode, { timeout: 5_000 })
      .toBe(503)
    const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'a@b.c', password: 'x' } })
    expect(res.statusCode).toBe(503)
    expect(res.headers['retry-after']).toBe('1')
    expect(res.json()).toEqual({ code: 'NOT_READY', message: BUSY_MESSAGE })
    // Liveness is still answered.
    expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200)
  })

  it('admits requests again once the queue is back under the limit', async () => {
    queued = 8
    // The queue is looked at every 20 ms: the next look admits again.
    await expect
      .poll(async () => (await app.inject({ method: 'GET', url: '/api/auth/me' })).statusCode, { timeout: 5_000 })
      .toBe(401) // reached the route: not signed in
  })
})
