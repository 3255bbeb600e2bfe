import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { eq } from 'drizzle-orm'
import { ErrorResponseSchema, USER_FORM_MESSAGES, UserActivitySchema, UuidParamsSchema } from '@portal/shared'
import { appUser } from '../../db/schema'
import { AppError } from '../../lib/app-error'
import { createLogsService } from './logs.service'

/** The latest rows a user wrote, for the admin's /admin/users/{id} page (DECISIONS.md). */
export const RECENT_ACTIVITY_LIMIT = 20

/** GET /api/users/{id}/activity, registered beside the users routes under /api/users. */
const userActivityRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const logs = createLogsService(app.db, app.log)

  app.get(
    '/:id/activity',
    {
      config: { permission: 'user.manage' },
      schema: {
        tags: ['users'],
        params: UuidParamsSchema,
        response: {
          200: UserActivitySchema,
          401: ErrorResponseSchema,
          403: ErrorResponseSchema,
          404: ErrorResponseSchema,
        },
      },
    },
    async (request) => {
      const [user] = await app.db
        .select({ id: appUser.id })
        .from(appUser)
        .where(eq(appUser.id, request.params.id))
        .limit(1)
      if (!user) throw new AppError('NOT_FOUND', USER_FORM_MESSAGES.userNotFound)
      return logs.recentOfUser(user.id, RECENT_ACTIVITY_LIMIT)
    },
  )
}

export default userActivityRoutes
