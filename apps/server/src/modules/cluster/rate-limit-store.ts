import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit'
import type { ClusterRepository } from './cluster.repository'

/** About one hit in this many also removes counters whose window ended an hour ago. */
const PRUNE_EVERY = 500
const PRUNE_AFTER_MS = 60 * 60 * 1000

/**
 * @fastify/rate-limit's store on the database: every node counts into the same rows, so a client
 * spreading requests over several nodes behind a balancer gets the same limit as on one. The
 * embedded database (PGlite) goes through the same repository.
 */
export function databaseRateLimitStore(repository: ClusterRepository): FastifyRateLimitStoreCtor {
  function store(namespace: string): FastifyRateLimitStore {
    return {
      incr(key, callback, timeWindow) {
        repository.rateLimitHit(`${namespace}${key}`, timeWindow).then(
          ({ hits, ttlMs }) => {
            if (Math.random() * PRUNE_EVERY < 1) {
              void repository.pruneRateLimits(PRUNE_AFTER_MS).catch(() => undefined)
            }
            callback(null, { current: hits, ttl: ttlMs })
          },
          (error: Error) => callback(error),
        )
      },
      // Route limits (a route's `config.rateLimit`, `app.rateLimit(...)`) count apart from each other.
      child(routeOptions) {
        const options = routeOptions as {
          routeInfo?: { method?: unknown; url?: string }
          groupId?: string
          max?: unknown
          timeWindow?: unknown
        }
        const info = options.routeInfo
        // A limit made with `app.rateLimit(...)` has no route: its limits name it.
        const name =
          options.groupId ??
          (info?.url
            ? `${String(info.method)}${info.url}`
            : `handler-${String(options.max)}-${String(options.timeWindow)}`)
        return store(`${namespace}${name}:`)
      },
    }
  }
  return class {
    constructor() {
      return store('')
    }
  } as unknown as FastifyRateLimitStoreCtor
}
