import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server'
import { Type } from 'typebox'
import {
  FactorAddedSchema,
  FactorRenameBodySchema,
  OkResponseSchema,
  PasskeyOptionsSchema,
  PasskeyRegisterBodySchema,
  PasskeySignInOptionsSchema,
  PasskeyStepBodySchema,
  SessionResponseSchema,
  StepTokenBodySchema,
  UuidSchema,
} from '@portal/shared'
import { errorResponses } from '../../lib/error-responses'
import { requireUser } from '../../plugins/app/auth'
import { clientOf } from './mfa.routes'
import type { MfaService } from './mfa.service'
import { route } from '../../lib/route'

// The browser library's JSON, bounded by the body schema; @simplewebauthn checks its content.
const registration = (body: unknown) => body as RegistrationResponseJSON
const assertion = (body: unknown) => body as AuthenticationResponseJSON

/**
 * Signing in with a passkey alone (public): options with a fresh challenge and the token that
 * names it, then the browser's answer. The token is single-purpose and spent on first use.
 */
export const passkeySignInRoutes: FastifyPluginAsyncTypebox<{ mfa: MfaService }> = async (app, { mfa }) => {
  const tags = ['auth']
  app.post(
    '/passkey/options',
    {
      // Each answer stores a challenge before anyone is known: bounded per address.
      config: { public: true, rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        tags,
        description: 'Options for a passkey sign-in (any passkey of this portal; user verification required).',
        response: { 200: PasskeySignInOptionsSchema, ...errorResponses(400, 429) },
      },
    },
    async () => mfa.passkeySignInOptions(),
  )
  app.post(
    '/passkey',
    route('public', {
      tags,
      description: 'A passkey with user verification is both factors: a session, with no second step.',
      body: PasskeyStepBodySchema,
      response: { 200: SessionResponseSchema, ...errorResponses(400, 401, 429) },
    }),
    async (request) => mfa.passkeySignIn(request.body.token, assertion(request.body.response), clientOf(request)),
  )
}

/** A passkey as the second step after a password (the second-step token in the body). */
export const passkeyStepRoutes: FastifyPluginAsyncTypebox<{ mfa: MfaService }> = async (app, { mfa }) => {
  const tags = ['auth']
  app.post(
    '/passkey/options',
    route('public', {
      tags,
      body: StepTokenBodySchema,
      response: { 200: PasskeyOptionsSchema, ...errorResponses(400, 401, 429) },
    }),
    async (request) => mfa.passkeyStepOptions(request.body.token),
  )
  app.post(
    '/passkey',
    route('public', {
      tags,
      body: PasskeyStepBodySchema,
      response: { 200: SessionResponseSchema, ...errorResponses(400, 401, 429) },
    }),
    async (request) => mfa.verifyPasskeyStep(request.body.token, assertion(request.body.response), clientOf(request)),
  )
}

/** The caller's own passkeys from Profile: register (named), rename any factor. */
export const passkeyProfileRoutes: FastifyPluginAsyncTypebox<{ mfa: MfaService }> = async (app, { mfa }) => {
  const gated = { permission: 'profile.manage' as const }
  const tags = ['profile']
  app.post(
    '/mfa/passkeys/options',
    { config: gated, schema: { tags, response: { 200: PasskeyOptionsSchema, ...errorResponses(400, 401, 403) } } },
    async (request) => mfa.passkeyRegistrationOptions(requireUser(request)),
  )
  app.post(
    '/mfa/passkeys',
    {
      config: gated,
      schema: {
        tags,
        description:
          "The browser's answer to the registration options; the first factor brings recovery codes. 409: the answer is to no live prompt of the caller's.",
        body: PasskeyRegisterBodySchema,
        response: { 200: FactorAddedSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request) =>
      mfa.registerPasskey(
        requireUser(request),
        request.body.name,
        registration(request.body.response),
        clientOf(request),
      ),
  )
  app.patch(
    '/mfa/factors/:factorId',
    {
      config: gated,
      schema: {
        tags,
        params: Type.Object({ factorId: UuidSchema }),
        body: FactorRenameBodySchema,
        response: { 200: OkResponseSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      await mfa.renameFactor(requireUser(request), request.params.factorId, request.body.name, clientOf(request))
      return { message: 'Factor renamed' }
    },
  )
}
