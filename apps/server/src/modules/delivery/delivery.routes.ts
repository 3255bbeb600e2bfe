import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest, FastifySchema } from 'fastify'
import type { TSchema } from 'typebox'
import {
  CompanyDeliverySchema,
  CompanyLicenceCountSchema,
  DispatchDeliverySchema,
  DispatchLtiSchema,
  IdParamsSchema,
  LicenceCountSchema,
  LtiSecretSchema,
  type Permission,
  UpdateCompanyDeliveryBodySchema,
  UpdateDispatchDeliveryBodySchema,
} from '@portal/shared'
import { errorResponses } from '../../lib/error-responses'
import { actorOf, requireUser } from '../../plugins/app/auth'
import type { DeliveryService } from './delivery.service'
import type { LtiService } from './lti.service'
import { route } from '../../lib/route'
import type { Viewer } from '../../lib/viewer'

const errors = errorResponses(400, 401, 403, 404, 502, 503)

/** A delivery route about one company or dispatch (the id in the path): its permission and summary. */
const byId = <S extends Omit<FastifySchema, 'params'>>(permission: Permission, summary: string, schema: S) =>
  route(permission, { tags: ['delivery'], summary, params: IdParamsSchema, ...schema })

const contextOf = (request: FastifyRequest) => ({
  viewer: requireUser(request),
  actor: actorOf(request),
  ip: request.ip,
})

/** A read about one company or dispatch: the signed-in viewer and the id in the path give the answer. */
interface Read {
  path: string
  permission: Permission
  summary: string
  answer: TSchema
  read: (viewer: Viewer, id: string) => Promise<unknown>
}

/**
 * Delivery settings, licence counts and LTI data under /api (docs/scorm-cloud-api.md §5, §6.1):
 * /companies/{id}/delivery and /licence-count (a client: its own company), and
 * /dispatches/{id}/delivery, /licence-count and /lti.
 */
const deliveryRoutes: FastifyPluginAsyncTypebox<{ delivery: DeliveryService; lti: LtiService }> = async (
  app,
  { delivery, lti },
) => {
  const reads: Read[] = [
    {
      path: '/companies/:id/delivery',
      permission: 'delivery.read',
      summary: "A company's delivery settings: launch authentication, instancing, learner data hashing, style sheet",
      answer: CompanyDeliverySchema,
      read: (viewer, id) => delivery.company(viewer, id),
    },
    {
      path: '/companies/:id/licence-count',
      permission: 'learner.read',
      summary: "A company's registrations against its learners per dispatch, and the learners counted twice",
      answer: CompanyLicenceCountSchema,
      read: (viewer, id) => delivery.companyLicenceCount(viewer, id),
    },
    {
      path: '/dispatches/:id/delivery',
      permission: 'delivery.read',
      summary: "A dispatch's delivery settings and those it takes from its company",
      answer: DispatchDeliverySchema,
      read: (viewer, id) => delivery.dispatch(viewer, id),
    },
    {
      path: '/dispatches/:id/licence-count',
      permission: 'dispatch.read',
      summary: 'Registrations against distinct learners, and the learners with more than one registration',
      answer: LicenceCountSchema,
      read: (viewer, id) => delivery.licenceCount(viewer, id),
    },
    {
      path: '/dispatches/:id/lti',
      permission: 'lti.read',
      summary: "A dispatch's LTI 1.1 launch data and LTI 1.3 tool configuration (no secret)",
      answer: DispatchLtiSchema,
      read: (viewer, id) => lti.get(viewer, id),
    },
  ]
  for (const { path, permission, summary, answer, read } of reads) {
    app.get(path, byId(permission, summary, { response: { 200: answer, ...errors } }), async (request) =>
      read(requireUser(request), request.params.id),
    )
  }

  app.put(
    '/companies/:id/delivery',
    byId('delivery.update', "Change a company's delivery settings (SCORM Cloud first, then the mirror)", {
      body: UpdateCompanyDeliveryBodySchema,
      response: { 200: CompanyDeliverySchema, ...errors },
    }),
    async (request) => delivery.updateCompany(request.params.id, request.body, contextOf(request)),
  )

  app.put(
    '/dispatches/:id/delivery',
    byId('delivery.update', "Change a dispatch's instancing, learner data hashing or style sheet", {
      body: UpdateDispatchDeliveryBodySchema,
      response: { 200: DispatchDeliverySchema, ...errors },
    }),
    async (request) => delivery.updateDispatch(request.params.id, request.body, contextOf(request)),
  )

  app.post(
    '/dispatches/:id/lti/secret',
    byId('lti.revealSecret', "Reveal a dispatch's LTI 1.1 shared secret (logged)", {
      response: { 200: LtiSecretSchema, ...errors },
    }),
    async (request) => lti.revealSecret(request.params.id, contextOf(request)),
  )
}
export default deliveryRoutes
