import fp from 'fastify-plugin'
import type { FastifyError } from 'fastify'
import { AppError } from '../../lib/app-error'

const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  '57P01', // admin_shutdown (pg_terminate_backend)
  '57P02',
  '57P03', // cannot_connect_now
])

function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 5) return false
  const code = (error as { code?: unknown }).code
  if (typeof code === 'string' && (CONNECTION_ERROR_CODES.has(code) || code.startsWith('08'))) {
    return true
  }
  const message = (error as Error).message ?? ''
  if (
    /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|is not currently accepting connections/i.test(
      message,
    )
  ) {
    return true
  }
  // Drizzle wraps the driver's error (DrizzleQueryError "Failed query: ..."); its code is on the cause.
  return isDatabaseUnavailable((error as { cause?: unknown }).cause, depth + 1)
}

/** Ajv's maxLength refusal as "must be at most 5,000 characters long"; undefined for any other. */
function tooLong(v: { keyword?: string; params?: Record<string, unknown> }): string | undefined {
  if (v.keyword !== 'maxLength' || typeof v.params?.limit !== 'number') return undefined
  return `must be at most ${v.params.limit.toLocaleString('en-US')} characters long`
}

/**
 * One place shapes every error as `{ code, message }` (docs/architecture.md §6): 4xx keep their text,
 * 5xx are logged with the request id and answered with a generic text.
 */
export const errorHandlerPlugin = fp(
  async (app) => {
    app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
      if (error instanceof AppError) {
        if (error.extra.retryAfterSeconds) {
          void reply.header('retry-after', String(error.extra.retryAfterSeconds))
        }
        return reply.code(error.statusCode).send({
          code: error.code,
          message: error.message,
          ...(error.extra.details ? { details: error.extra.details } : {}),
        })
      }
      const fe = error as FastifyError
      if (fe.validation) {
        const details = fe.validation.map((v) => ({
          field: String(v.instancePath || v.params?.missingProperty || '').replace(/^\//, ''),
          message: tooLong(v) ?? v.message ?? 'is invalid',
        }))
        // A text over its limit names the field and the limit in words a form can show as is.
        const first = fe.validation[0]
        const message = first && tooLong(first) ? `${details[0]!.field} ${tooLong(first)}.` : fe.message
        return reply.code(400).send({ code: 'VALIDATION_FAILED', message, details })
      }
      if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
        return reply.code(413).send({ code: 'PAYLOAD_TOO_LARGE', message: 'The request body is too large.' })
      }
      if (fe.statusCode === 429) {
        return reply.code(429).send({ code: 'TOO_MANY_REQUESTS', message: fe.message })
      }
      if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
        // A body the parser refuses as a whole (not JSON, a __proto__ key, an empty JSON body).
        const details = fe.code?.startsWith('FST_ERR_CTP_') ? [{ field: 'body', message: fe.message }] : undefined
        return reply
          .code(fe.statusCode)
          .send({ code: 'VALIDATION_FAILED', message: fe.message, ...(details ? { details } : {}) })
      }
      if (isDatabaseUnavailable(error)) {
        request.log.warn({ err: error }, 'database unavailable')
        return reply
          .code(503)
          .header('retry-after', '5')
          .send({ code: 'NOT_READY', message: 'The service is not ready. Please try again shortly.' })
      }
      request.log.error({ err: error }, 'unhandled error')
      return reply.code(500).send({ code: 'INTERNAL', message: 'Something went wrong. Please try again.' })
    })
  },
  { name: 'error-handler' },
)
