import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import {
  CreateUserSchema,
  OkResponseSchema,
  SalesUserListSchema,
  UpdateUserSchema,
  UserActivitySchema,
  UserListSchema,
  UserMutationResponseSchema,
  UserSchema,
  UserStatusBodySchema,
  UuidParamsSchema,
} from '@portal/shared'
import { errorResponses } from '../../lib/error-responses'
import { actorOf, requireUser } from '../../plugins/app/auth'
import type { AdminContext, UsersService } from './users.service'
import { route } from '../../lib/route'

const errors = errorResponses(400, 401, 403, 404, 409)

const contextOf = (request: FastifyRequest): AdminContext => ({
  actor: actorOf(request)!,
  actorId: requireUser(request).id,
  ip: request.ip,
})

/** /api/users: the admin's User Management (docs/product-rules.md §2 Settings, §5, §7). */
export const usersRoutes: FastifyPluginAsyncTypebox<{ users: UsersService }> = async (app, { users }) => {
  const gated = { permission: 'user.manage' as const }

  app.get('/', { config: gated, schema: { tags: ['users'], response: { 200: UserListSchema, ...errors } } }, async () =>
    users.list(),
  )

  app.get(
    '/:id/activity',
    {
      config: gated,
      schema: { tags: ['users'], params: UuidParamsSchema, response: { 200: UserActivitySchema, ...errors } },
    },
    async (request) => users.recentActivity(request.params.id),
  )

  app.get(
    '/:id',
    { config: gated, schema: { tags: ['users'], params: UuidParamsSchema, response: { 200: UserSchema, ...errors } } },
    async (request) => users.get(request.params.id),
  )

  app.post(
    '/',
    {
      config: gated,
      schema: { tags: ['users'], body: CreateUserSchema, response: { 201: UserMutationResponseSchema, ...errors } },
    },
    async (request, reply) => {
      const user = await users.create(request.body, contextOf(request))
      return reply.code(201).send({ ...user, message: 'User created successfully' })
    },
  )

  app.put(
    '/:id',
    {
      config: gated,
      schema: {
        tags: ['users'],
        params: UuidParamsSchema,
        body: UpdateUserSchema,
        response: { 200: UserMutationResponseSchema, ...errors },
      },
    },
    async (request) => {
      const user = await users.update(request.params.id, request.body, contextOf(request))
      return { ...user, message: 'User updated successfully' }
    },
  )

  app.put(
    '/:id/status',
    {
      config: gated,
      schema: {
        tags: ['users'],
        params: UuidParamsSchema,
        body: UserStatusBodySchema,
        response: { 200: UserMutationResponseSchema, ...errors },
      },
    },
    async (request) => {
      const user = await users.setStatus(request.params.id, request.body.status, contextOf(request))
      return { ...user, message: `User ${user.status === 'active' ? 'activated' : 'suspended'} successfully` }
    },
  )

  app.delete(
    '/:id',
    {
      config: gated,
      schema: { tags: ['users'], params: UuidParamsSchema, response: { 200: OkResponseSchema, ...errors } },
    },
    async (request) => {
      await users.remove(request.params.id, contextOf(request))
      return { message: 'User deleted successfully' }
    },
  )
}

/** /api/admin/users/sales: account-manager choices for the companies screen. */
export const salesUsersRoutes: FastifyPluginAsyncTypebox<{ users: UsersService }> = async (app, { users }) => {
  app.get(
    '/sales',
    route('company.read', {
      tags: ['users'],
      response: { 200: SalesUserListSchema, ...errorResponses(401, 403) },
    }),
    async () => users.listSales(),
  )
}
