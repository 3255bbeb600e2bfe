import path from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  LogController,
  type FastifyError,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify'
import type { AppConfig } from './config'
import { jsonBoundsKeywords } from './lib/json-bounds'
import { buildValidator } from './lib/validators'

export const DEFAULT_WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist')

/** Tokens and passwords never reach the request log. */
export const REDACT = ['req.headers["x-auth-token"]', 'req.headers.authorization', 'req.headers.cookie']

/** One set of Fastify options for the server and for the tests (docs/architecture.md §3, fastify/demo). */
export function serverOptions(config: AppConfig, logger: FastifyServerOptions['logger'] = undefined) {
  return {
    logger: logger ?? { level: config.logLevel, redact: REDACT },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    requestIdHeader: false as const,
    // One line per request (the onResponse hook in buildApp) instead of Fastify's two: logging is a
    // fair share of a cheap request's CPU.
    logController: new LogController({ disableRequestLogging: true }),
    // The router's own refusals (a path that is not percent-encoded UTF-8, a path
    // parameter over 100 characters) in the shape of every other error, with the field named.
    frameworkErrors: (error: FastifyError, _request: FastifyRequest, reply: FastifyReply) => {
      const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      const message = tooLong ? 'must not be longer than 100 characters' : 'must be valid percent-encoded UTF-8'
      void reply
        .code(tooLong ? 414 : 400)
        .send({ code: 'VALIDATION_FAILED', message: `The path ${message}.`, details: [{ field: 'path', message }] })
    },
    ajv: {
      customOptions: {
        removeAdditional: 'all' as const,
        coerceTypes: 'array' as const,
        useDefaults: true,
        allErrors: false,
      },
      // maxDepth and maxJsonLength: the bounds of free-form JSON fields.
      plugins: [jsonBoundsKeywords],
    },
    // Bodies refuse an array where a scalar is declared; query strings keep it (lib/validators.ts).
    schemaController: { compilersFactory: { buildValidator: buildValidator() } },
  } satisfies FastifyServerOptions
}
