import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { DashboardChartsQuerySchema, DashboardChartsSchema, DispatchChartsSchema, IdParamsSchema } from '@portal/shared'
import { requireUser } from '../../plugins/app/auth'
import type { ChartsService } from './charts.service'
import { moduleRoute } from '../../lib/route'

const chartRoute = moduleRoute('reports')

/** /api/reports/charts: chart data, scoped like the lists. */
const chartsRoutes: FastifyPluginAsyncTypebox<{ charts: ChartsService }> = async (app, { charts }) => {
  app.get(
    '/dispatch/:id',
    chartRoute('report.read', DispatchChartsSchema, {
      summary: 'A dispatch: completions per week (last 26 weeks) and registrations by status',
      params: IdParamsSchema,
    }),
    async (request) => charts.dispatchCharts(requireUser(request), request.params.id),
  )

  app.get(
    '/dashboard',
    chartRoute('dispatch.read', DashboardChartsSchema, {
      summary:
        'The dashboard: registrations per month (last 12 months) of the filtered dispatches, cap usage, and (staff) the ten dispatches nearest their cap',
      querystring: DashboardChartsQuerySchema,
    }),
    async (request) => charts.dashboardCharts(requireUser(request), request.query),
  )
}

export default chartsRoutes
