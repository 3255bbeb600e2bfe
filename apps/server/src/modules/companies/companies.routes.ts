import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import {
  CompanyDetailSchema,
  CompanyListSchema,
  CompanySchema,
  IdParamsSchema,
  UpdateCompanyBodySchema,
} from '@portal/shared'
import { errorResponses } from '../../lib/error-responses'
import { route } from '../../lib/route'
import { actorOf, requireUser } from '../../plugins/app/auth'
import type { CompaniesService } from './companies.service'

const errors = errorResponses(400, 401, 403, 404)

/**
 * /api/admin/companies (docs/product-rules.md §7). The sync button's GET /api/admin/companies/sync belongs to
 * the sync module; find-my-way matches that static path before `/:id`.
 */
const companiesRoutes: FastifyPluginAsyncTypebox<{ companies: CompaniesService }> = async (app, { companies }) => {
  app.get(
    '/',
    route('company.read', { tags: ['companies'], response: { 200: CompanyListSchema, ...errors } }),
    async (request) => companies.list(requireUser(request).role),
  )

  app.get(
    '/:id',
    route('company.read', {
      tags: ['companies'],
      params: IdParamsSchema,
      response: { 200: CompanyDetailSchema, ...errors },
    }),
    async (request) => companies.detail(request.params.id, requireUser(request).role),
  )

  app.put(
    '/:id',
    route('company.update', {
      tags: ['companies'],
      params: IdParamsSchema,
      body: UpdateCompanyBodySchema,
      response: { 200: CompanySchema, ...errors },
    }),
    async (request) => companies.update(request.params.id, request.body, { actor: actorOf(request), ip: request.ip }),
  )
}

export default companiesRoutes
