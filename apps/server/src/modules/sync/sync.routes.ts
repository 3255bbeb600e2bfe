import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { CompanySyncResponseSchema, CourseSyncResponseSchema, SyncStatusResponseSchema } from '@portal/shared'
import { errorResponses } from '../../lib/error-responses'
import { route } from '../../lib/route'
import { AppError } from '../../lib/app-error'
import { actorOf } from '../../plugins/app/auth'
import type { AdminContext, SyncAdminService } from './sync-admin.service'

const errors = errorResponses(401, 403, 409, 502, 503)

const contextOf = (request: FastifyRequest): AdminContext => ({ actor: actorOf(request), ip: request.ip })

/**
 * Sync endpoints of docs/product-rules.md §7 plus the status screen's call, registered under /api. Without SCORM
 * Cloud credentials they still exist and answer 503, so the browser gets a clear message.
 */
const syncRoutes: FastifyPluginAsyncTypebox<{ admin: SyncAdminService | null }> = async (app, { admin }) => {
  const service = (): SyncAdminService => {
    if (!admin) throw new AppError('NOT_READY', 'SCORM Cloud is not configured.')
    return admin
  }

  app.get(
    '/dispatches/courses/sync',
    route('course.sync', { tags: ['sync'], response: { 200: CourseSyncResponseSchema, ...errors } }),
    async (request) => service().syncCourses(contextOf(request)),
  )

  app.get(
    '/admin/companies/sync',
    route('company.sync', { tags: ['sync'], response: { 200: CompanySyncResponseSchema, ...errors } }),
    async (request) => service().syncCompanies(contextOf(request)),
  )

  app.get(
    '/admin/sync/status',
    route('sync.read', { tags: ['sync'], response: { 200: SyncStatusResponseSchema, ...errors } }),
    async () => service().status(),
  )
}

export default syncRoutes
