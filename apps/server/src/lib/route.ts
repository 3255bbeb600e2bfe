import type { Permission } from '@portal/shared'
import type { FastifyContextConfig, FastifySchema } from 'fastify'

/**
 * A route's usual options: the permission it requires (or `'public'`, deny by default in
 * plugins/app/auth.ts) and its OpenAPI schema. Routes that need more (a body or rate limit)
 * write their options out in full.
 */
export function route<S extends FastifySchema & { tags: string[] }>(permission: Permission | 'public', schema: S) {
  const config: FastifyContextConfig = permission === 'public' ? { public: true } : { permission }
  return { config, schema }
}
