import type { FastifyInstance } from 'fastify'

/**
 * What a registration wired for one app, kept beside the app for the tests and the composition
 * root: `remember` it once while wiring, read it with `of` (which throws, with `missing`, for an
 * app that did not wire it).
 */
export function perApp<T>(missing: string) {
  const wired = new WeakMap<FastifyInstance, T>()
  return {
    remember(app: FastifyInstance, value: T): void {
      wired.set(app, value)
    },
    of(app: FastifyInstance): T {
      const value = wired.get(app)
      if (!value) throw new Error(missing)
      return value
    },
  }
}
