import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { DashboardChartsQuerySchema, DashboardChartsSchema, DispatchChartsSchema, IdParamsSchema } from '@portal/shared'
import { errorResponses } from '../../lib/error-responses'
import { requireUser } from '../../plugins/app/auth'
import type { ChartsService } from './charts.service'
import { route } from '../../lib/route'

const errors = errorResponses(400, 401, 403, 404)

/** /api/reports/charts: chart data, scoped like the lists. */
const chartsRoutes: FastifyPluginAsyncTypebox<{ charts: ChartsService }> = async (app, { charts }) => {
  app.get(
    '/dispatch/:id',
    route('report.read', {
      tags: ['reports'],
      summary: 'A dispatch: completions per week (last 26 weeks) and registrations by status',
      params: IdParamsSchema,
      response: { 200: DispatchChartsSchema, ...errors },
    }),
    async (request) => charts.dispatchCharts(requireUser(request), request.params.id),
  )

  app.get(
    '/dashboard',
    route('dispatch.read', {
      tags: ['reports'],
      summary:
        'The dashboard: registrations per month (last 12 months) of the filtered dispatches, cap usage, and (staff) the ten dispatches nearest their cap',
      querystring: DashboardChartsQuerySchema,
      response: { 200: DashboardChartsSchema, ...errors },
    }),
    async (request) => charts.dashboardCharts(requireUser(request), request.query),
  )
}

export default chartsRoutes
