import Fastify from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { errorHandlerPlugin } from '../../plugins/app/error-handler'

/**
 * Reliability suite: a database that cannot be reached answers 503 NOT_READY with
 * Retry-After, also when the driver's error arrives wrapped by Drizzle ("Failed query: ...",
 * the driver's error as `cause`), which is how every query error reaches the handler.
 */
const app = Fastify({ logger: false })
let thrown: unknown
beforeAll(async () => {
  await app.register(errorHandlerPlugin)
  app.get('/boom', async () => {
    throw thrown
  })
  await app.ready()
})
afterAll(() => app.close())

const driverError = (message: string, code?: string) => Object.assign(new Error(message), code ? { code } : {})
const wrapped = (cause: Error) => new Error(`Failed query: select 1\nparams: : ${cause.message}`, { cause })

describe('database unavailable', () => {
  it.each([
    ['PostgreSQL stopped', driverError('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['connection killed', driverError('terminating connection due to administrator command', '57P01')],
    ['server starting or stopping', driverError('the database system is shutting down', '57P03')],
    ['database closed to connections', driverError('database "x" is not currently accepting connections', '55000')],
    ['pool timeout', driverError('timeout exceeded when trying to connect')],
  ])('answers 503 for %s, bare or wrapped by Drizzle', async (_name, error) => {
    for (const candidate of [error, wrapped(error)]) {
      thrown = candidate
      const res = await app.inject({ method: 'GET', url: '/boom' })
      expect(res.statusCode).toBe(503)
      expect(res.headers['retry-after']).toBe('5')
      expect(res.json()).toEqual({ code: 'NOT_READY', message: 'The service is not ready. Please try again shortly.' })
    }
  })

  it('still answers 500 for a query that fails for another reason', async () => {
    thrown = wrapped(driverError('duplicate key value violates unique constraint', '23505'))
    const res = await app.inject({ method: 'GET', url: '/boom' })
    expect(res.statusCode).toBe(500)
    expect(res.json()).toEqual({ code: 'INTERNAL', message: 'Something went wrong. Please try again.' })
  })
})
