import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { PreferencesSchema } from '@portal/shared'
import { errorResponses } from '../../lib/error-responses'
import { requireUser } from '../../plugins/app/auth'
import type { PreferencesService } from './preferences.service'
import { route } from '../../lib/route'

const errors = errorResponses(400, 401, 403)

/** GET/PUT /api/profile/preferences, the caller's own (every role). */
const preferencesRoutes: FastifyPluginAsyncTypebox<{ preferences: PreferencesService }> = async (
  app,
  { preferences },
) => {
  app.get(
    '/preferences',
    route('profile.manage', { tags: ['profile'], response: { 200: PreferencesSchema, ...errors } }),
    async (request) => preferences.read(requireUser(request)),
  )

  app.put(
    '/preferences',
    route('profile.manage', {
      tags: ['profile'],
      body: PreferencesSchema,
      response: { 200: PreferencesSchema, ...errors },
    }),
    async (request) => preferences.save(requireUser(request), request.body),
  )
}

export default preferencesRoutes
