import fp from 'fastify-plugin'
import cors from '@fastify/cors'
import rateLimit, { type FastifyRateLimitStoreCtor } from '@fastify/rate-limit'
import helmet, { type HelmetOptions } from 'helmet'
import type { AppConfig } from '../../config'

/** The security headers of every answer, as helmet writes them. */
const HELMET_OPTIONS: HelmetOptions = {
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
}

/**
 * docs/product-decisions.md D24: a strict CSP (no inline script, object-src 'none', base-uri 'none',
 * frame-ancestors 'none'), nosniff, Referrer-Policy, HSTS (browsers honour it only over TLS),
 * and CORS closed unless origins are configured.
 */
export const securityPlugin = fp<{ config: AppConfig; rateLimitStore: FastifyRateLimitStoreCtor }>(
  async (app, { config, rateLimitStore }) => {
    // Built once and run on every request: building helmet's middleware parses and checks every
    // CSP directive, work that would otherwise be repeated for each request.
    const securityHeaders = helmet(HELMET_OPTIONS)
    app.addHook('onRequest', (request, reply, done) => {
      securityHeaders(request.raw, reply.raw, (error) => done(error as Error | undefined))
    })
    if (config.corsOrigins.length > 0) {
      await app.register(cors, { origin: config.corsOrigins, credentials: false })
    }
    // Counted in the database, so every node behind a balancer applies the same limit.
    await app.register(rateLimit, { global: false, store: rateLimitStore })
    // API answers carry tokens (sign-in, refresh) or a signed-in user's data, which
    // neither the browser nor a shared cache may keep. The documentation and web app files may.
    app.addHook('onSend', async (request, reply) => {
      const url = request.url
      if (url.startsWith('/api/') && !url.startsWith('/api/docs') && !reply.hasHeader('cache-control')) {
        void reply.header('cache-control', 'no-store')
      }
    })
  },
  { name: 'security' },
)
