import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import {
  OkResponseSchema,
  SaveStaffSsoBodySchema,
  SsoDomainsBodySchema,
  SsoFlowTestResultSchema,
  SsoTestResultSchema,
  SsoTestStartSchema,
  StaffRolesBodySchema,
  StaffSsoSettingsSchema,
} from '@portal/shared'
import { Type } from 'typebox'
import { errorResponses } from '../../lib/error-responses'
import { actorOf } from '../../plugins/app/auth'
import { adminContext, adminErrors, testStarted } from './sso.routes'
import type { SsoService } from './sso.service'
import { route } from '../../lib/route'

/** /api/admin/sso/staff: the vendor's staff connection, its domains and role mapping (admin). */
export const ssoStaffAdminRoutes: FastifyPluginAsyncTypebox<{ sso: SsoService; secureCookie: boolean }> = async (
  app,
  { sso, secureCookie },
) => {
  const settings = { 200: StaffSsoSettingsSchema, ...adminErrors }

  app.get('', route('sso.manage', { tags: ['sso'], response: settings }), async () => sso.staffSettings())

  app.put(
    '',
    route('sso.manage', { tags: ['sso'], body: SaveStaffSsoBodySchema, response: settings }),
    async (request) => sso.saveStaff(request.body, adminContext(request)),
  )

  app.delete(
    '',
    route('sso.manage', { tags: ['sso'], response: { 200: OkResponseSchema, ...adminErrors } }),
    async (request) => {
      await sso.removeStaff(adminContext(request))
      return { message: 'Staff sign-in connection removed' }
    },
  )

  app.put(
    '/domains',
    route('sso.manage', { tags: ['sso'], body: SsoDomainsBodySchema, response: settings }),
    async (request) => sso.setStaffDomains(request.body.domains, adminContext(request)),
  )

  app.put(
    '/roles',
    route('sso.manage', { tags: ['sso'], body: StaffRolesBodySchema, response: settings }),
    async (request) => sso.setStaffRoles(request.body.roles, adminContext(request)),
  )

  app.post(
    '/test',
    route('sso.manage', { tags: ['sso'], response: { 200: SsoTestResultSchema, ...adminErrors } }),
    async () => sso.testStaff(),
  )

  app.post(
    '/test/start',
    route('sso.manage', {
      tags: ['sso'],
      description:
        'Starts a test sign-in at the staff provider: the admin’s browser goes to `location` and comes back to Settings with the test’s id. Nobody is signed in or created.',
      response: { 200: SsoTestStartSchema, ...errorResponses(400, 401, 403, 404, 409, 502) },
    }),
    async (request, reply) => testStarted(reply, await sso.startStaffTest(actorOf(request)), secureCookie),
  )

  app.get(
    '/test/:flowId',
    route('sso.manage', {
      tags: ['sso'],
      description: 'What the staff provider sent in the admin’s own test sign-in (claims, never a token).',
      params: Type.Object({ flowId: Type.String({ minLength: 1, maxLength: 36 }) }),
      response: { 200: SsoFlowTestResultSchema, ...adminErrors },
    }),
    async (request) => sso.staffTestResult(request.params.flowId, actorOf(request)),
  )
}
