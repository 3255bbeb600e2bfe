import type { Permission } from '@portal/shared'
import type { TSchema } from 'typebox'
import type { FastifyContextConfig, FastifySchema } from 'fastify'
import { requestErrors } from './error-responses'

/**
 * A route's usual options: the permission it requires (or `'public'`, deny by default in
 * plugins/app/auth.ts) and its OpenAPI schema. Routes that need more (a body or rate limit)
 * write their options out in full.
 */
export function route<S extends FastifySchema & { tags: string[] }>(permission: Permission | 'public', schema: S) {
  const config: FastifyContextConfig = permission === 'public' ? { public: true } : { permission }
  return { config, schema }
}

/**
 * The routes of one module share their OpenAPI tag and their error answers (by default a
 * signed-in request's usual ones): `moduleRoute(tag, errors)` fixes both, so that each route
 * names only its permission, its 200 answer and the rest of its schema (summary, params, query,
 * body), which keeps their order in the document.
 */
export function moduleRoute<const E extends Record<number, TSchema> = typeof requestErrors>(
  tag: string,
  errors: E = requestErrors as E,
) {
  return <A extends TSchema | object, S extends Omit<FastifySchema, 'tags' | 'response'> = object>(
    permission: Permission | 'public',
    answer: A,
    schema?: S,
  ) => route(permission, { tags: [tag], ...(schema as S), response: { 200: answer, ...errors } })
}
