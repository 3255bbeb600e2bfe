import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import {
  EndedSessionsSchema,
  EnrolCompleteSchema,
  EnrolConfirmBodySchema,
  FactorAddedSchema,
  IdParamsSchema,
  MfaCompanyRuleBodySchema,
  MfaCompanyRuleSchema,
  MfaRoleRulesBodySchema,
  MfaRoleRulesSchema,
  MfaStatusSchema,
  OkResponseSchema,
  RecoveryCodeBodySchema,
  RecoveryCodesSchema,
  SecondStepCodeBodySchema,
  SessionListSchema,
  SessionResponseSchema,
  StepTokenBodySchema,
  TotpConfirmBodySchema,
  TotpEnrolmentSchema,
  UserMfaSchema,
  UuidParamsSchema,
  UuidSchema,
} from '@portal/shared'
import { errorResponses } from '../../lib/error-responses'
import { actorOf, requireUser } from '../../plugins/app/auth'
import type { MfaService } from './mfa.service'
import { route } from '../../lib/route'

export const clientOf = (request: FastifyRequest) => ({
  ip: request.ip,
  userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'].slice(0, 300) : null,
})

/**
 * The second step of a sign-in, and a required enrolment. Public as far as access tokens go:
 * each route takes the single-purpose token of the sign-in answer in its body, and that token
 * opens nothing else (it is not an access token, and each purpose opens only its own routes).
 */
export const mfaStepRoutes: FastifyPluginAsyncTypebox<{ mfa: MfaService }> = async (app, { mfa }) => {
  const errors = errorResponses(400, 401, 429)
  const tags = ['auth']

  app.post(
    '/totp',
    route('public', { tags, body: SecondStepCodeBodySchema, response: { 200: SessionResponseSchema, ...errors } }),
    async (request) => mfa.verifyTotp(request.body.token, request.body.code, clientOf(request)),
  )

  app.post(
    '/recovery',
    route('public', { tags, body: RecoveryCodeBodySchema, response: { 200: SessionResponseSchema, ...errors } }),
    async (request) => mfa.verifyRecoveryCode(request.body.token, request.body.code, clientOf(request)),
  )

  app.post(
    '/enrol/totp',
    route('public', { tags, body: StepTokenBodySchema, response: { 200: TotpEnrolmentSchema, ...errors } }),
    async (request) => mfa.enrolStart(request.body.token),
  )

  app.post(
    '/enrol/totp/confirm',
    route('public', {
      tags,
      body: EnrolConfirmBodySchema,
      response: { 200: EnrolCompleteSchema, ...errorResponses(400, 401, 404, 429) },
    }),
    async (request) =>
      mfa.enrolConfirm(request.body.token, request.body.factorId, request.body.code, clientOf(request)),
  )
}

/** The caller's own factors, recovery codes and sessions (Profile, every role). */
export const mfaProfileRoutes: FastifyPluginAsyncTypebox<{ mfa: MfaService }> = async (app, { mfa }) => {
  const gated = { permission: 'profile.manage' as const }
  const tags = ['profile']
  const errors = errorResponses(400, 401, 403)

  app.get(
    '/security',
    { config: gated, schema: { tags, response: { 200: MfaStatusSchema, ...errors } } },
    async (request) => mfa.status(requireUser(request)),
  )

  app.post(
    '/mfa/totp',
    { config: gated, schema: { tags, response: { 200: TotpEnrolmentSchema, ...errors } } },
    async (request) => mfa.startTotp(requireUser(request)),
  )

  app.post(
    '/mfa/totp/:factorId/confirm',
    {
      config: gated,
      schema: {
        tags,
        params: Type.Object({ factorId: UuidSchema }),
        body: TotpConfirmBodySchema,
        response: { 200: FactorAddedSchema, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) =>
      mfa.confirmTotp(
        requireUser(request),
        request.params.factorId,
        request.body.code,
        request.body.name,
        clientOf(request),
      ),
  )

  app.delete(
    '/mfa/factors/:factorId',
    {
      config: gated,
      schema: {
        tags,
        params: Type.Object({ factorId: UuidSchema }),
        response: { 200: OkResponseSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      await mfa.removeFactor(requireUser(request), request.params.factorId, clientOf(request))
      return { message: 'Factor removed' }
    },
  )

  app.post(
    '/mfa/recovery-codes',
    { config: gated, schema: { tags, response: { 200: RecoveryCodesSchema, ...errorResponses(400, 401, 403, 409) } } },
    async (request) => mfa.regenerateRecoveryCodes(requireUser(request), clientOf(request)),
  )

  app.get(
    '/sessions',
    { config: gated, schema: { tags, response: { 200: SessionListSchema, ...errors } } },
    async (request) => {
      const user = requireUser(request)
      return mfa.sessions(user.id, user.sessionId)
    },
  )

  app.delete(
    '/sessions/:sessionId',
    {
      config: gated,
      schema: {
        tags,
        description: "Ends one of the caller's own sessions; another user's session is not found.",
        params: Type.Object({ sessionId: UuidSchema }),
        response: { 200: OkResponseSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      await mfa.endSession(requireUser(request), request.params.sessionId, clientOf(request))
      return { message: 'Signed out' }
    },
  )

  app.post(
    '/sessions/end-others',
    { config: gated, schema: { tags, response: { 200: EndedSessionsSchema, ...errors } } },
    async (request) => {
      const user = requireUser(request)
      return mfa.endOtherSessions(user, user.sessionId, clientOf(request))
    },
  )
}

/** User Management: a user's factors and sessions, the reset for a lost phone (admins). */
export const mfaUserAdminRoutes: FastifyPluginAsyncTypebox<{ mfa: MfaService }> = async (app, { mfa }) => {
  const gated = { permission: 'user.manage' as const }
  const tags = ['users']
  const errors = errorResponses(400, 401, 403, 404)
  const ctx = (request: FastifyRequest) => ({ actor: actorOf(request)!, ip: request.ip })

  app.get(
    '/:id/mfa',
    { config: gated, schema: { tags, params: UuidParamsSchema, response: { 200: UserMfaSchema, ...errors } } },
    async (request) => mfa.userMfa(request.params.id),
  )

  app.delete(
    '/:id/mfa',
    {
      config: gated,
      schema: {
        tags,
        description: 'Removes every second factor and recovery code of the user (audited, mailed to the user).',
        params: UuidParamsSchema,
        response: { 200: OkResponseSchema, ...errors },
      },
    },
    async (request) => {
      await mfa.resetFactors(request.params.id, ctx(request))
      return { message: 'Second factors reset' }
    },
  )

  app.delete(
    '/:id/sessions',
    {
      config: gated,
      schema: { tags, params: UuidParamsSchema, response: { 200: EndedSessionsSchema, ...errors } },
    },
    async (request) => mfa.endAllSessions(request.params.id, ctx(request)),
  )
}

/** The rules: per staff role (admin settings) and per company for its client users. */
export const mfaRulesRoutes: FastifyPluginAsyncTypebox<{ mfa: MfaService }> = async (app, { mfa }) => {
  const tags = ['admin']
  const errors = errorResponses(400, 401, 403, 404)
  const ctx = (request: FastifyRequest) => ({ actor: actorOf(request)!, ip: request.ip })

  app.get('/mfa/rules', route('user.manage', { tags, response: { 200: MfaRoleRulesSchema, ...errors } }), async () =>
    mfa.roleRules(),
  )

  app.put(
    '/mfa/rules',
    route('user.manage', { tags, body: MfaRoleRulesBodySchema, response: { 200: MfaRoleRulesSchema, ...errors } }),
    async (request) => mfa.setRoleRules(request.body, ctx(request)),
  )

  app.get(
    '/companies/:id/mfa',
    route('company.update', { tags, params: IdParamsSchema, response: { 200: MfaCompanyRuleSchema, ...errors } }),
    async (request) => mfa.companyRule(request.params.id),
  )

  app.put(
    '/companies/:id/mfa',
    route('company.update', {
      tags,
      params: IdParamsSchema,
      body: MfaCompanyRuleBodySchema,
      response: { 200: MfaCompanyRuleSchema, ...errors },
    }),
    async (request) => mfa.setCompanyRule(request.params.id, request.body, ctx(request)),
  )
}
