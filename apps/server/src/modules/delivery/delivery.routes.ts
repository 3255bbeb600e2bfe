import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest, FastifySchema } from 'fastify'
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

const errors = errorResponses(400, 401, 403, 404, 502, 503)

/** A delivery route about one company or dispatch (the id in the path): its permission and summary. */
const byId = <S extends Omit<FastifySchema, 'params'>>(permission: Permission, summary: string, schema: S) =>
  route(permission, { tags: ['delivery'], summary, params: IdParamsSchema, ...schema })

const contextOf = (request: FastifyRequest) => ({
  viewer: requireUser(request),
  actor: actorOf(request),
  ip: request.ip,
})

/** /companies/{id}/delivery and /licence-count: a company's (a client: its own company). */
const companyDeliveryRoutes: FastifyPluginAsyncTypebox<{ delivery: DeliveryService }> = async (app, { delivery }) => {
  app.get(
    '/:id/delivery',
    byId(
      'delivery.read',
      "A company's delivery settings: launch authentication, instancing, learner data hashing, style sheet",
      { response: { 200: CompanyDeliverySchema, ...errors } },
    ),
    async (request) => delivery.company(requireUser(request), request.params.id),
  )

  app.get(
    '/:id/licence-count',
    byId(
      'learner.read',
      "A company's registrations against its learners per dispatch, and the learners counted twice",
      { response: { 200: CompanyLicenceCountSchema, ...errors } },
    ),
    async (request) => delivery.companyLicenceCount(requireUser(request), request.params.id),
  )

  app.put(
    '/:id/delivery',
    byId('delivery.update', "Change a company's delivery settings (SCORM Cloud first, then the mirror)", {
      body: UpdateCompanyDeliveryBodySchema,
      response: { 200: CompanyDeliverySchema, ...errors },
    }),
    async (request) => delivery.updateCompany(request.params.id, request.body, contextOf(request)),
  )
}

/** /dispatches/{id}/delivery, /licence-count and /lti. */
const dispatchDeliveryRoutes: FastifyPluginAsyncTypebox<{ delivery: DeliveryService; lti: LtiService }> = async (
  app,
  { delivery, lti },
) => {
  app.get(
    '/:id/delivery',
    byId('delivery.read', "A dispatch's delivery settings and those it takes from its company", {
      response: { 200: DispatchDeliverySchema, ...errors },
    }),
    async (request) => delivery.dispatch(requireUser(request), request.params.id),
  )

  app.put(
    '/:id/delivery',
    byId('delivery.update', "Change a dispatch's instancing, learner data hashing or style sheet", {
      body: UpdateDispatchDeliveryBodySchema,
      response: { 200: DispatchDeliverySchema, ...errors },
    }),
    async (request) => delivery.updateDispatch(request.params.id, request.body, contextOf(request)),
  )

  app.get(
    '/:id/licence-count',
    byId('dispatch.read', 'Registrations against distinct learners, and the learners with more than one registration', {
      response: { 200: LicenceCountSchema, ...errors },
    }),
    async (request) => delivery.licenceCount(requireUser(request), request.params.id),
  )

  app.get(
    '/:id/lti',
    byId('lti.read', "A dispatch's LTI 1.1 launch data and LTI 1.3 tool configuration (no secret)", {
      response: { 200: DispatchLtiSchema, ...errors },
    }),
    async (request) => lti.get(requireUser(request), request.params.id),
  )

  app.post(
    '/:id/lti/secret',
    byId('lti.revealSecret', "Reveal a dispatch's LTI 1.1 shared secret (logged)", {
      response: { 200: LtiSecretSchema, ...errors },
    }),
    async (request) => lti.revealSecret(request.params.id, contextOf(request)),
  )
}

/** Delivery settings, licence counts and LTI data under /api (docs/scorm-cloud-api.md §5, §6.1). */
const deliveryRoutes: FastifyPluginAsyncTypebox<{ delivery: DeliveryService; lti: LtiService }> = async (
  app,
  options,
) => {
  await app.register(companyDeliveryRoutes, { prefix: '/companies', delivery: options.delivery })
  await app.register(dispatchDeliveryRoutes, { prefix: '/dispatches', delivery: options.delivery, lti: options.lti })
}
export default deliveryRoutes
