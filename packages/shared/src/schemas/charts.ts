import { Type, type Static } from 'typebox'
import { IntegerFields, PickProperties } from './common'
import { DispatchListQuerySchema, DispatchSchema } from './dispatches'

/** Weeks of the dispatch chart, months of the dashboard charts (both end with the current one, UTC). */
export const CHART_WEEKS = 26
export const CHART_MONTHS = 12
/** The staff dashboard's "nearest their cap" list. */
export const NEAREST_CAP_LIMIT = 10

/** GET /api/reports/charts/dashboard: the dashboard list's own filters (search, status), as the dispatch list takes them. */
export const DashboardChartsQuerySchema = Type.Object(PickProperties(DispatchListQuerySchema, ['search', 'status']))
export type DashboardChartsQuery = Static<typeof DashboardChartsQuerySchema>

export const ChartWeekSchema = Type.Object({
  /** The Monday that starts the week (UTC), YYYY-MM-DD. */
  week: Type.String(),
  /** Live registrations whose completion date falls in the week. */
  completions: Type.Integer(),
})

/** GET /api/reports/charts/dispatch/{id}. */
export const DispatchChartsSchema = Type.Object({
  /** The last 26 weeks, oldest first, the current week last (empty weeks are 0). */
  weeks: Type.Array(ChartWeekSchema),
  /**
   * Live registrations by completion status, and by success status (`unknown`: neither passed
   * nor failed, no success status reported yet).
   */
  status: Type.Object(
    IntegerFields('registrations', 'completed', 'incomplete', 'notStarted', 'passed', 'failed', 'unknown'),
  ),
})
export type DispatchCharts = Static<typeof DispatchChartsSchema>

export const ChartMonthSchema = Type.Object({
  /** YYYY-MM (UTC). */
  month: Type.String(),
  /** Live registrations created in the month, of the filtered live dispatches. */
  registrations: Type.Integer(),
  /** Live registrations created up to the end of the month (the usage trend). */
  cumulative: Type.Integer(),
})

/** A dispatch of the "nearest their cap" list: what of the dispatch the list shows. */
export const NearestCapSchema = Type.Object(
  PickProperties(DispatchSchema, ['id', 'courseTitle', 'destinationName', 'registrationCount', 'registrationCap']),
)
export type NearestCap = Static<typeof NearestCapSchema>

/** GET /api/reports/charts/dashboard. */
export const DashboardChartsSchema = Type.Object({
  /** The last 12 months, oldest first, the current month last. */
  months: Type.Array(ChartMonthSchema),
  /** The registration counters of the filtered capped dispatches against their caps (today). */
  usage: Type.Object({
    used: Type.Integer(),
    capacity: Type.Integer(),
    /** Filtered dispatches without a cap (not in used/capacity). */
    unlimited: Type.Integer(),
  }),
  /** Staff only: the ten filtered capped dispatches with the largest share of their cap used. */
  nearestCap: Type.Optional(Type.Array(NearestCapSchema)),
})
export type DashboardCharts = Static<typeof DashboardChartsSchema>
