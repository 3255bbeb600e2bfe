import fp from 'fastify-plugin'
import type { FastifyRequest, RouteOptions } from 'fastify'
import { can, type Permission } from '@portal/shared'
import { AppError } from '../../lib/app-error'
import { decodeJwt } from 'jose'
import type { AccessClaims, TokenSigner } from '../../lib/tokens'
import type { Actor, ChangeActor } from '../../lib/actor'
import type { SessionCheck, SessionUser } from '../../db/session-user'
import { keyActor, type ApiKeyGate, type KeyCall } from '../../lib/api-key-call'

/** The signed-in user of a request: the session check's user and the session it holds. */
export interface AuthUser extends SessionUser {
  sessionId: string
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The permission this route needs (docs/product-rules.md §6 via @portal/shared); or `public: true`. */
    permission?: Permission
    public?: boolean
  }
  interface FastifyRequest {
    user: AuthUser | null
    /** Set when the call came with an API key (`Authorization: Bearer`) instead of a session. */
    apiKeyCall: KeyCall | null
  }
}

export const ACCESS_TOKEN_HEADER = 'x-auth-token'
/** Verified access tokens remembered at most (oldest first out): one per recently active sign-in. */
const VERIFIED_TOKENS_MAX = 10_000

/** The signed-in user, for handlers of gated routes (the hook guarantees one). */
export function requireUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw new AppError('UNAUTHENTICATED')
  return request.user
}

export function actorOf(request: FastifyRequest): Actor | null {
  // A key's change is logged under the key (and through it, its creator).
  if (request.apiKeyCall) return keyActor(request.apiKeyCall)
  const u = request.user
  return u ? { id: u.id, name: u.name ?? u.username, email: u.email } : null
}

/** Who a request's licence changes are recorded under in the dispatch history: its user or its API key. */
export function requestChangeActor(request: FastifyRequest): ChangeActor | undefined {
  const call = request.apiKeyCall
  if (call)
    return { kind: 'apiKey', id: call.key.id, label: keyActor(call).name ?? call.key.name, email: call.user.email }
  const u = request.user
  return u ? { kind: 'user', id: u.id, label: u.name ?? u.username, email: u.email } : undefined
}

/**
 * Deny by default (docs/architecture.md §3, immich's guard): every route declares a permission or `public`;
 * a route that declares neither stops the server at start, and this hook enforces the rest.
 */
export const authPlugin = fp<{
  signer: TokenSigner
  /** The session check run for each gated request (db/session-user.ts). */
  sessionCheck: SessionCheck
  /** The bearer path: API keys, and their per-key limit of calls in a window. */
  apiKeys: ApiKeyGate
  apiKeyRateLimit: { max: number; timeWindowMs: number }
}>(
  async (app, { signer, sessionCheck, apiKeys, apiKeyRateLimit }) => {
    const routes: RouteOptions[] = []
    app.decorateRequest('user', null)
    app.decorateRequest('apiKeyCall', null)
    // Per key, not per address: a key's calls share one budget wherever they come from.
    const keyLimit = app.rateLimit({
      max: apiKeyRateLimit.max,
      timeWindow: apiKeyRateLimit.timeWindowMs,
      keyGenerator: (request) => `api-key:${request.apiKeyCall?.key.id ?? ''}`,
    })
    app.addHook('onRoute', (route) => {
      routes.push(route)
    })
    // Every route with its declared access, for the access-matrix test (test/security).
    app.decorate('registeredRoutes', () =>
      routes.flatMap((r) =>
        (Array.isArray(r.method) ? r.method : [r.method]).map((method) => ({
          method: String(method),
          url: r.url,
          public: r.config?.public === true,
          permission: r.config?.permission ?? null,
        })),
      ),
    )
    app.decorate('undeclaredRoutes', () =>
      routes.filter((r) => !r.config?.public && !r.config?.permission).map((r) => `${String(r.method)} ${r.url}`),
    )
    app.addHook('onReady', async () => {
      const undeclared = app.undeclaredRoutes()
      if (undeclared.length > 0) {
        throw new Error(`Routes without a permission or public flag: ${undeclared.join(', ')}`)
      }
    })

    /**
     * Access tokens whose signature has been checked, until they expire: a check costs CPU on
     * every request, and a browser sends the same token for up to 15 minutes. Only
     * the signature is remembered; the session and user are still read on every call.
     */
    const verified = new Map<string, { claims: AccessClaims; expiresAtMs: number }>()
    async function claimsOf(token: string): Promise<AccessClaims | null> {
      const known = verified.get(token)
      if (known && known.expiresAtMs > Date.now()) return known.claims
      if (known) verified.delete(token)
      const claims = await signer.verifyAccess(token)
      const { exp } = claims ? decodeJwt(token) : {}
      if (claims && typeof exp === 'number') {
        if (verified.size >= VERIFIED_TOKENS_MAX) verified.delete(verified.keys().next().value!)
        verified.set(token, { claims, expiresAtMs: exp * 1000 })
      }
      return claims
    }

    async function authenticate(request: FastifyRequest): Promise<AuthUser> {
      const header = request.headers[ACCESS_TOKEN_HEADER]
      const token = Array.isArray(header) ? header[0] : header
      if (!token) throw new AppError('UNAUTHENTICATED')
      const claims = await claimsOf(token)
      if (!claims) throw new AppError('UNAUTHENTICATED', 'Invalid or expired token.')
      const row = await sessionCheck(claims)
      if (!row) throw new AppError('UNAUTHENTICATED', 'Invalid or expired token.')
      return { ...row, sessionId: claims.sid }
    }

    app.addHook('onRequest', async (request, reply) => {
      if (!request.routeOptions.url) return // unknown path: the not-found handler answers
      const config = request.routeOptions.config
      if (config.public) return
      const bearer = request.headers.authorization
      if (bearer !== undefined && request.headers[ACCESS_TOKEN_HEADER] === undefined) {
        const call = await apiKeys.authenticate(bearer)
        request.apiKeyCall = call
        request.user = { ...call.user, sessionId: `api-key:${call.key.id}` }
        await keyLimit.call(app, request, reply)
        apiKeys.authorize(call, config.permission)
        return
      }
      const user = await authenticate(request)
      request.user = user
      if (!config.permission || !can(user.role, config.permission)) {
        throw new AppError('FORBIDDEN')
      }
    })
    app.addHook('onResponse', async (request, reply) => {
      const call = request.apiKeyCall
      if (!call) return
      try {
        await apiKeys.called(call, {
          method: request.method,
          route: request.routeOptions.url ?? request.url,
          ip: request.ip,
          status: reply.statusCode,
        })
      } catch (error) {
        request.log.error({ err: error }, 'API key call not audited')
      }
    })
  },
  { name: 'auth' },
)

declare module 'fastify' {
  interface FastifyInstance {
    undeclaredRoutes(): string[]
    registeredRoutes(): { method: string; url: string; public: boolean; permission: Permission | null }[]
  }
}
