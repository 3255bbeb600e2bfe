import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import {
  DashboardChartsQuerySchema,
  DashboardChartsSchema,
  DispatchChartsSchema,
  ErrorResponseSchema,
  IdParamsSchema,
} from '@portal/shared'
import { requireUser } from '../../plugins/app/auth'
import type { ChartsService } from './charts.service'

const errors = {
  400: ErrorResponseSchema,
  401: ErrorResponseSchema,
  403: ErrorResponseSchema,
  404: ErrorResponseSchema,
}

/** /api/reports/charts (issue #16): chart data, scoped like the lists. */
const chartsRoutes: FastifyPluginAsyncTypebox<{ charts: ChartsService }> = async (app, { charts }) => {
  app.get(
    '/dispatch/:id',
    {
      config: { permission: 'report.read' },
      schema: {
        tags: ['reports'],
        summary: 'A dispatch: completions per week (last 26 weeks) and registrations by status',
        params: IdParamsSchema,
        response: { 200: DispatchChartsSchema, ...errors },
      },
    },
    async (request) => charts.dispatchCharts(requireUser(request), request.params.id),
  )

  app.get(
    '/dashboard',
    {
      config: { permission: 'dispatch.read' },
      schema: {
        tags: ['reports'],
        summary:
          'The dashboard: registrations per month (last 12 months) of the filtered dispatches, cap usage, and (staff) the ten dispatches nearest their cap',
        querystring: DashboardChartsQuerySchema,
        response: { 200: DashboardChartsSchema, ...errors },
      },
    },
    async (request) => charts.dashboardCharts(requireUser(request), request.query),
  )
}

export default chartsRoutes
