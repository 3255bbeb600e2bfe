import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import {
  CompanyDeliverySchema,
  CompanyLicenceCountSchema,
  DispatchDeliverySchema,
  DispatchLtiSchema,
  IdParamsSchema,
  LicenceCountSchema,
  LtiSecretSchema,
  UpdateCompanyDeliveryBodySchema,
  UpdateDispatchDeliveryBodySchema,
} from '@portal/shared'
import { errorResponses } from '../../lib/error-responses'
import { actorOf, requireUser } from '../../plugins/app/auth'
import type { DeliveryService } from './delivery.service'
import type { LtiService } from './lti.service'
import { route } from '../../lib/route'

const errors = errorResponses(400, 401, 403, 404, 502, 503)

const contextOf = (request: FastifyRequest) => ({
  viewer: requireUser(request),
  actor: actorOf(request),
  ip: request.ip,
})

/** /companies/{id}/delivery and /licence-count: a company's (a client: its own company). */
const companyDeliveryRoutes: FastifyPluginAsyncTypebox<{ delivery: DeliveryService }> = async (app, { delivery }) => {
  app.get(
    '/:id/delivery',
    route('delivery.read', {
      tags: ['delivery'],
      summary: "A company's delivery settings: launch authentication, instancing, learner data hashing, style sheet",
      params: IdParamsSchema,
      response: { 200: CompanyDeliverySchema, ...errors },
    }),
    async (request) => delivery.company(requireUser(request), request.params.id),
  )

  app.get(
    '/:id/licence-count',
    route('learner.read', {
      tags: ['delivery'],
      summary: "A company's registrations against its learners per dispatch, and the learners counted twice",
      params: IdParamsSchema,
      response: { 200: CompanyLicenceCountSchema, ...errors },
    }),
    async (request) => delivery.companyLicenceCount(requireUser(request), request.params.id),
  )

  app.put(
    '/:id/delivery',
    route('delivery.update', {
      tags: ['delivery'],
      summary: "Change a company's delivery settings (SCORM Cloud first, then the mirror)",
      params: IdParamsSchema,
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
    route('delivery.read', {
      tags: ['delivery'],
      summary: "A dispatch's delivery settings and those it takes from its company",
      params: IdParamsSchema,
      response: { 200: DispatchDeliverySchema, ...errors },
    }),
    async (request) => delivery.dispatch(requireUser(request), request.params.id),
  )

  app.put(
    '/:id/delivery',
    route('delivery.update', {
      tags: ['delivery'],
      summary: "Change a dispatch's instancing, learner data hashing or style sheet",
      params: IdParamsSchema,
      body: UpdateDispatchDeliveryBodySchema,
      response: { 200: DispatchDeliverySchema, ...errors },
    }),
    async (request) => delivery.updateDispatch(request.params.id, request.body, contextOf(request)),
  )

  app.get(
    '/:id/licence-count',
    route('dispatch.read', {
      tags: ['delivery'],
      summary: 'Registrations against distinct learners, and the learners with more than one registration',
      params: IdParamsSchema,
      response: { 200: LicenceCountSchema, ...errors },
    }),
    async (request) => delivery.licenceCount(requireUser(request), request.params.id),
  )

  app.get(
    '/:id/lti',
    route('lti.read', {
      tags: ['delivery'],
      summary: "A dispatch's LTI 1.1 launch data and LTI 1.3 tool configuration (no secret)",
      params: IdParamsSchema,
      response: { 200: DispatchLtiSchema, ...errors },
    }),
    async (request) => lti.get(requireUser(request), request.params.id),
  )

  app.post(
    '/:id/lti/secret',
    {
      config: { permission: 'lti.revealSecret' },
      schema: {
        tags: ['delivery'],
        summary: "Reveal a dispatch's LTI 1.1 shared secret (logged)",
        params: IdParamsSchema,
        response: { 200: LtiSecretSchema, ...errors },
      },
    },
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
