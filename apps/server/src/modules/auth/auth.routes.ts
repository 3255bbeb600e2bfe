import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import {
  AuthConfigSchema,
  LoginBodySchema,
  OkResponseSchema,
  RefreshBodySchema,
  SessionResponseSchema,
  SignInResponseSchema,
  UserOptionListSchema,
  UserSchema,
} from '@portal/shared'
import { errorResponses } from '../../lib/error-responses'
import { requireUser } from '../../plugins/app/auth'
import type { UsersService } from '../users/users.service'
import { toUser } from '../users/users.mapper'
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../demo/demo-accounts'
import type { AuthService } from './auth.service'
import { route } from '../../lib/route'

const errors = errorResponses(400, 401, 429)

const authRoutes: FastifyPluginAsyncTypebox<{
  auth: AuthService
  users: UsersService
  demoMode: boolean
  supportEmail: string
}> = async (app, { auth, users, demoMode, supportEmail }) => {
  const clientOf = (request: { ip: string; headers: Record<string, unknown> }) => ({
    ip: request.ip,
    userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'].slice(0, 300) : null,
  })

  app.post(
    '/login',
    route('public', {
      tags: ['auth'],
      description:
        'A session, or (`secondStep`) the single-purpose token for the second factor or a required enrolment.',
      body: LoginBodySchema,
      response: { 200: SignInResponseSchema, ...errors },
    }),
    async (request) => auth.login(request.body.email, request.body.password, clientOf(request)),
  )

  app.post(
    '/refresh-token',
    route('public', { tags: ['auth'], body: RefreshBodySchema, response: { 200: SessionResponseSchema, ...errors } }),
    async (request) => auth.refresh(request.body.refreshToken, clientOf(request)),
  )

  app.post(
    '/revoke-token',
    route('public', { tags: ['auth'], body: RefreshBodySchema, response: { 200: OkResponseSchema, ...errors } }),
    async (request) => {
      await auth.revoke(request.body.refreshToken, clientOf(request))
      return { message: 'Signed out' }
    },
  )

  app.get(
    '/me',
    route('session.read', { tags: ['auth'], response: { 200: UserSchema, ...errorResponses(401) } }),
    // The session check of plugins/app/auth.ts has just read the whole user: no second query.
    async (request) => toUser(requireUser(request)),
  )

  app.get(
    '/users',
    route('user.list', {
      tags: ['auth'],
      response: { 200: UserOptionListSchema, ...errorResponses(401, 403) },
    }),
    async () => users.options(),
  )

  app.get('/config', route('public', { tags: ['auth'], response: { 200: AuthConfigSchema } }), async () => ({
    demoMode,
    demoAccounts: demoMode ? DEMO_ACCOUNTS.map(({ email, role }) => ({ email, role })) : [],
    demoPassword: demoMode ? DEMO_PASSWORD : null,
    supportEmail,
  }))
}

export default authRoutes
