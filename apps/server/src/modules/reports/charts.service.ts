import {
  ownCompanyOnly,
  CHART_MONTHS,
  CHART_WEEKS,
  can,
  type DashboardCharts,
  type DashboardChartsQuery,
  type DispatchCharts,
} from '@portal/shared'
import type { DbOrTx } from '../../db/client'
import type { Viewer } from '../../lib/viewer'
import type { ReadCacheOptions } from '../../lib/versioned-cache'
import type { DispatchesService } from '../dispatches/dispatches.service'
import { cachePerDatabase, createVersionedCache } from '../../lib/versioned-cache'
import type { ChartsRepository, DashboardChartsRow, DispatchChartsRow } from './charts.repository'

/** Recent chart answers per key (scope, filters, window) and data version. */
const dispatchCache = cachePerDatabase<DispatchChartsRow>(200)
const dashboardCache = cachePerDatabase<DashboardChartsRow>(200)

const DAY_MS = 86_400_000
const isoDay = (date: Date) => date.toISOString().slice(0, 10)

/** The Monday (UTC) that starts the week of `now`, and the one `CHART_WEEKS - 1` weeks before it. */
export function chartWeeks(now: Date): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
  const monday = today - ((new Date(today).getUTCDay() + 6) % 7) * DAY_MS
  return Array.from({ length: CHART_WEEKS }, (_, i) => isoDay(new Date(monday - (CHART_WEEKS - 1 - i) * 7 * DAY_MS)))
}

/** The last `CHART_MONTHS` months (YYYY-MM, UTC) ending with the month of `now`. */
export function chartMonths(now: Date): string[] {
  const year = now.getUTCFullYear()
  const month = now.getUTCMonth()
  return Array.from({ length: CHART_MONTHS }, (_, i) =>
    new Date(Date.UTC(year, month - (CHART_MONTHS - 1 - i), 1)).toISOString().slice(0, 7),
  )
}

/** The first day after the month YYYY-MM. */
function monthAfter(month: string): string {
  const [year, m] = month.split('-').map(Number) as [number, number]
  return isoDay(new Date(Date.UTC(year, m, 1)))
}

/**
 * Charts: a dispatch's completions per week and status breakdown; the dashboard's
 * registrations per month over its filters, cap usage and (staff) the dispatches nearest their
 * cap. Scoped like the lists (a client sees its own company only, in the query) and cached per
 * data version. `now` is injectable for tests.
 */
export function createChartsService(
  deps: { db: DbOrTx; charts: ChartsRepository; dispatches: DispatchesService },
  options: ReadCacheOptions & { now?: () => Date } = {},
) {
  const { db, charts, dispatches } = deps
  const now = options.now ?? (() => new Date())
  const dispatchCached = options.cache === false ? createVersionedCache<DispatchChartsRow>(0) : dispatchCache(db)
  const dashboardCached = options.cache === false ? createVersionedCache<DashboardChartsRow>(0) : dashboardCache(db)

  return {
    async dispatchCharts(viewer: Viewer, dispatchId: string): Promise<DispatchCharts> {
      const row = await dispatches.requireVisible(viewer, dispatchId)
      const weeks = chartWeeks(now())
      const since = weeks[0]!
      const read = await dispatchCached.read(
        JSON.stringify([dispatchId, since]),
        row.registrationVersion ?? null,
        async () => {
          const value = await charts.dispatchCharts(dispatchId, since)
          return { value, version: value.version }
        },
      )
      const value = read.value
      const byWeek = new Map(value.weeks.map((w) => [w.week, w.completions]))
      return {
        weeks: weeks.map((week) => ({ week, completions: byWeek.get(week) ?? 0 })),
        status: {
          registrations: value.registrations,
          completed: value.completed,
          incomplete: value.incomplete,
          notStarted: value.notStarted,
          passed: value.passed,
          failed: value.failed,
          unknown: Math.max(0, value.registrations - value.passed - value.failed),
        },
      }
    },

    async dashboardCharts(viewer: Viewer, query: DashboardChartsQuery): Promise<DashboardCharts> {
      const months = chartMonths(now())
      const staff = can(viewer.role, 'destination.read')
      if (ownCompanyOnly(viewer.role) && !viewer.companyId) {
        return {
          months: months.map((month) => ({ month, registrations: 0, cumulative: 0 })),
          usage: { used: 0, capacity: 0, unlimited: 0 },
        }
      }
      const filter = {
        companyId: ownCompanyOnly(viewer.role) ? viewer.companyId! : undefined,
        search: query.search,
        status: query.status,
        nearestCap: staff,
      }
      const since = `${months[0]}-01`
      const until = monthAfter(months[months.length - 1]!)
      const key = JSON.stringify([filter.companyId ?? 'all', staff, query.status, query.search?.trim() ?? '', since])
      // The entry is served while the scope's version is the one its aggregate was read at (same
      // statement); the current version is a look-up of two maxima.
      const version = await charts.dashboardVersion(filter.companyId)
      const current = await dashboardCached.read(key, version, async () => {
        const value = await charts.dashboardCharts(filter, since, until)
        return { value, version: value.version }
      })
      const value = current.value
      const byMonth = new Map(value.months.map((m) => [m.month, m.registrations]))
      let cumulative = value.before
      return {
        months: months.map((month) => {
          const registrations = byMonth.get(month) ?? 0
          cumulative += registrations
          return { month, registrations, cumulative }
        }),
        usage: { used: value.used, capacity: value.capacity, unlimited: value.unlimited },
        ...(staff ? { nearestCap: value.nearestCap } : {}),
      }
    },
  }
}
export type ChartsService = ReturnType<typeof createChartsService>
