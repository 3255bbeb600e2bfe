import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { PreferencesSchema } from '@portal/shared'
import { errorResponses } from '../../lib/error-responses'
import { requireUser } from '../../plugins/app/auth'
import type { PreferencesService } from './preferences.service'
import { moduleRoute } from '../../lib/route'

const preferencesRoute = moduleRoute('profile', errorResponses(400, 401, 403))

/** GET/PUT /api/profile/preferences, the caller's own (every role). */
const preferencesRoutes: FastifyPluginAsyncTypebox<{ preferences: PreferencesService }> = async (
  app,
  { preferences },
) => {
  app.get('/preferences', preferencesRoute('profile.manage', PreferencesSchema), async (request) =>
    preferences.read(requireUser(request)),
  )

  app.put(
    '/preferences',
    preferencesRoute('profile.manage', PreferencesSchema, { body: PreferencesSchema }),
    async (request) => preferences.save(requireUser(request), request.body),
  )
}

export default preferencesRoutes
