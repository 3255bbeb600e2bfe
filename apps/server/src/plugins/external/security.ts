import fp from 'fastify-plugin'
import helmet from '@fastify/helmet'
import cors from '@fastify/cors'
import rateLimit from '@fastify/rate-limit'
import type { AppConfig } from '../../config'
import { AppError } from '../../lib/app-error'

/** True when any string (or key) in a parsed body, query or params holds a NUL character. */
function holdsNul(root: unknown): boolean {
  const stack = [root]
  while (stack.length > 0) {
    const value = stack.pop()
    if (typeof value === 'string') {
      if (value.includes('\0')) return true
    } else if (value !== null && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        if (key.includes('\0')) return true
        stack.push(inner)
      }
    }
  }
  return false
}

/**
 * DECISIONS.md: a strict CSP (no inline script, object-src 'none', base-uri 'none',
 * frame-ancestors 'none'), nosniff, Referrer-Policy, HSTS (browsers honour it only over TLS),
 * and CORS closed unless origins are configured.
 */
export const securityPlugin = fp<{ config: AppConfig }>(
  async (app, { config }) => {
    await app.register(helmet, {
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'https:', 'http:'],
          fontSrc: ["'self'", 'data:'],
          connectSrc: ["'self'"],
          objectSrc: ["'none'"],
          baseUri: ["'none'"],
          frameAncestors: ["'none'"],
          formAction: ["'self'"],
        },
      },
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
      crossOriginEmbedderPolicy: false,
    })
    if (config.corsOrigins.length > 0) {
      await app.register(cors, { origin: config.corsOrigins, credentials: false })
    }
    await app.register(rateLimit, { global: false })
    // PostgreSQL cannot store NUL in text or jsonb; refused here as a 400 rather than failing
    // in the database as a 500 (found by test/security/csv-injection.test.ts).
    app.addHook('preValidation', async (request) => {
      if (holdsNul(request.body) || holdsNul(request.query) || holdsNul(request.params)) {
        throw new AppError('VALIDATION_FAILED', 'The request contains a NUL character, which is not allowed.')
      }
    })
  },
  { name: 'security' },
)
