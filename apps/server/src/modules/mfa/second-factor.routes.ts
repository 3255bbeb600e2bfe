import type { FastifyPluginAsync } from 'fastify'
import { mfaProfileRoutes, mfaRulesRoutes, mfaStepRoutes, mfaUserAdminRoutes } from './mfa.routes'
import type { MfaService } from './mfa.service'
import { passkeyProfileRoutes, passkeySignInRoutes, passkeyStepRoutes } from './passkeys.routes'

/**
 * Every route of second factors, under the prefixes the API has always had: the second step of
 * a sign-in, passkey sign-in, the user's own factors on Profile, an admin's resets and rules.
 * Registered without a prefix of its own, so each keeps its full path.
 */
export const secondFactorRoutes: FastifyPluginAsync<{ mfa: MfaService }> = async (app, { mfa }) => {
  await app.register(mfaStepRoutes, { prefix: '/api/auth/mfa', mfa })
  await app.register(passkeyStepRoutes, { prefix: '/api/auth/mfa', mfa })
  await app.register(passkeySignInRoutes, { prefix: '/api/auth', mfa })
  await app.register(passkeyProfileRoutes, { prefix: '/api/profile', mfa })
  await app.register(mfaProfileRoutes, { prefix: '/api/profile', mfa })
  await app.register(mfaUserAdminRoutes, { prefix: '/api/users', mfa })
  await app.register(mfaRulesRoutes, { prefix: '/api/admin', mfa })
}
