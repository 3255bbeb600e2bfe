import fp from 'fastify-plugin'
import underPressure from '@fastify/under-pressure'

export interface BackpressureOptions {
  /** Requests waiting for a database connection now (pg.Pool waitingCount; 0 on PGlite). */
  waiting(): number
  /** More waiting than this, and new requests are refused until the queue drains. */
  queueLimit: number
}

export const BUSY_MESSAGE = 'The server is busy. Please try again in a moment.'
/** How often the pool's queue is looked at: a refusal lasts at most this long past the overload. */
const QUEUE_CHECK_MS = 20

/**
 * Past capacity, a fast and clean refusal: while more requests wait for a PostgreSQL
 * connection than DATABASE_QUEUE_LIMIT, new requests get 503 with Retry-After at once, instead of
 * queueing until the pool's 5 s connect time-out. Requests already admitted carry on.
 * /api/health (liveness) is always answered. The event loop's delay is not a signal here: on
 * PGlite one long statement (an export) blocks the loop by design, and refusing everyone else
 * for it would be wrong; PGlite (embedded, one process) queues its statements itself.
 */
export const backpressurePlugin = fp<BackpressureOptions>(
  async (app, options) => {
    await app.register(underPressure, {
      healthCheck: async () => options.waiting() <= options.queueLimit,
      healthCheckInterval: QUEUE_CHECK_MS,
      // Answering here ends the request (Fastify runs no handler after a sent reply).
      pressureHandler: (request, reply) => {
        if (request.url === '/api/health') return
        void reply.code(503).header('retry-after', '1').send({ code: 'NOT_READY', message: BUSY_MESSAGE })
      },
    })
  },
  { name: 'backpressure' },
)
