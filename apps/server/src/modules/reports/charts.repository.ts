import { sql, type SQL } from 'drizzle-orm'
import type { DashboardChartsQuery } from '@portal/shared'
import { NEAREST_CAP_LIMIT } from '@portal/shared'
import type { DbOrTx } from '../../db/client'
import { dispatch, dispatchStat } from '../../db/schema'
import { matchesTerm, termMatch } from '../../db/search'
import { enabledIs, keptScope, matchesIds, searchSetsSql, versionSql, type SearchSets } from '../../db/dispatch-search'
import { rowsOf, toVersion } from '../../db/statement'

/**
 * The charts' aggregates as SQL, read from what migration 0016's triggers keep
 * (dispatch_week, dispatch_success, dispatch_month, company_month) and 0008's dispatch_stat, in
 * one statement each together with the version they were read at (same snapshot), so the
 * service caches them per version like the lists.
 */

export interface DispatchChartsRow {
  weeks: { week: string; completions: number }[]
  registrations: number
  completed: number
  incomplete: number
  notStarted: number
  passed: number
  failed: number
  version: number | null
}

export interface DashboardFilter {
  /** A client's company; undefined for staff (every company). */
  companyId?: string | undefined
  search?: string | undefined
  status: DashboardChartsQuery['status']
  /** Staff: also the dispatches nearest their cap. */
  nearestCap: boolean
}

export interface DashboardChartsRow {
  months: { month: string; registrations: number }[]
  /** Registrations created before the first month (where the cumulative line starts). */
  before: number
  used: number
  capacity: number
  unlimited: number
  nearestCap: {
    id: string
    courseTitle: string
    destinationName: string
    registrationCount: number
    registrationCap: number
  }[]
  version: number | null
}

const num = (value: unknown) => (value === null || value === undefined ? 0 : Number(value))
/** json columns: node-postgres and PGlite both parse them; a string is parsed here. */
const json = <T>(value: unknown, fallback: T): T =>
  value === null || value === undefined ? fallback : typeof value === 'string' ? (JSON.parse(value) as T) : (value as T)

/** The share of its cap a dispatch used: the expression of dispatch_cap_usage_idx (migration 0016). */
const CAP_SHARE = sql`(${dispatch.registrationCount}::float8 / ${dispatch.registrationCap})`

/** The live dispatches of a filter with a search (as the dispatch list matches them). */
function searchedDispatches(filter: DashboardFilter, term: string, sets: SearchSets): SQL {
  const d = dispatch
  const company = filter.companyId === undefined ? sql`true` : sql`${d.destinationId} = ${filter.companyId}`
  const matches = [
    sql`${d.courseId} = any(${sql.param(sets.courses)}::text[])`,
    sql`${d.destinationId} = any(${sql.param(sets.companies)}::text[])`,
  ]
  if (matchesIds(term)) matches.push(matchesTerm(sql`${d.id}`, term))
  return sql`${d.removedAt} is null and ${company} and ${enabledIs(filter.status, sql`${d.enabled}`)}
    and (${sql.join(matches, sql` or `)})`
}

/** The ten dispatches of `where` (capped, live) with the largest share of their cap used. */
function nearestCapSql(where: SQL): SQL {
  const d = dispatch
  return sql`(select coalesce(json_agg(json_build_object(
      'id', n.id, 'courseTitle', n.course_title, 'destinationName', n.destination_name,
      'registrationCount', n.registration_count, 'registrationCap', n.registration_cap)), '[]')
    from (
      select ${d.id} as id, ${d.courseTitle} as course_title, ${d.destinationName} as destination_name,
        ${d.registrationCount} as registration_count, ${d.registrationCap} as registration_cap
      from ${d}
      where ${where} and ${d.registrationCap} > 0
      order by ${CAP_SHARE} desc, ${d.id}
      limit ${NEAREST_CAP_LIMIT}
    ) as n)`
}

/**
 * The dashboard charts' version for a scope: the largest company_month version (the months) plus
 * the dispatches' version (versionSql: the search matches, counters and caps). Both only grow,
 * so their sum changes whenever either does.
 */
function dashboardVersionSql(companyId: string | undefined): SQL {
  const company = companyId === undefined ? sql`true` : sql`company_id = ${companyId}`
  return sql`(select coalesce(max(version), 0) from company_month where ${company}) + coalesce(${versionSql({ companyId })}, 0)`
}

export function createChartsRepository(db: DbOrTx) {
  return {
    /** The current version of the dashboard charts of a scope (see dashboardVersionSql). */
    async dashboardVersion(companyId: string | undefined): Promise<number | null> {
      const row = rowsOf(await db.execute(sql`select ${dashboardVersionSql(companyId)} as version`))[0]
      return toVersion(row?.version)
    },

    /** A dispatch's completions per week since `since` (a Monday) and its status counts. */
    async dispatchCharts(dispatchId: string, since: string): Promise<DispatchChartsRow> {
      const s = dispatchStat
      const result = await db.execute(sql`
        select
          (select coalesce(json_agg(json_build_object('week', to_char(w.week, 'YYYY-MM-DD'), 'completions', w.completions)), '[]')
           from dispatch_week as w where w.dispatch_id = ${dispatchId} and w.week >= ${since}::date) as weeks,
          ${s.registrations} as registrations, ${s.completed} as completed, ${s.incomplete} as incomplete,
          ${s.notAttempted} as not_attempted, ${s.version} as version,
          x.passed as passed, x.failed as failed
        from (select 1) as one
        left join ${s} on ${s.dispatchId} = ${dispatchId}
        left join dispatch_success as x on x.dispatch_id = ${dispatchId}`)
      const row = rowsOf(result)[0] ?? {}
      return {
        weeks: json(row.weeks, []).map((w: { week: string; completions: unknown }) => ({
          week: w.week,
          completions: num(w.completions),
        })),
        registrations: num(row.registrations),
        completed: num(row.completed),
        incomplete: num(row.incomplete),
        notStarted: num(row.not_attempted),
        passed: num(row.passed),
        failed: num(row.failed),
        version: toVersion(row.version),
      }
    },

    /**
     * Registrations per month from `since` (a month's first day) to before `until`, the
     * registrations before, the cap usage and (staff) the nearest-cap list of a dashboard filter.
     * Without a search: company_month (a few rows per company) and dispatch_summary; with one,
     * the matching dispatches' dispatch_month rows. The version is the sum of the months' version
     * and the dispatches' (dashboardVersionSql).
     */
    async dashboardCharts(filter: DashboardFilter, since: string, until: string): Promise<DashboardChartsRow> {
      const term = filter.search?.trim()
      const companyIs = (column: string) =>
        filter.companyId === undefined ? sql`true` : sql`${sql.raw(`"${column}"`)} = ${filter.companyId}`
      const version = dashboardVersionSql(filter.companyId)
      let statement: SQL
      if (!term) {
        const scope = sql`${companyIs('company_id')} and ${enabledIs(filter.status, sql`enabled`)}`
        const kept = keptScope(filter)
        const live = sql`${dispatch.removedAt} is null and ${enabledIs(filter.status, sql`${dispatch.enabled}`)}`
        statement = sql`
          select
            (select coalesce(json_agg(json_build_object('month', to_char(t.month, 'YYYY-MM'), 'registrations', t.registrations)), '[]')
             from (select month, sum(registrations) as registrations from company_month
                   where ${scope} and month >= ${since}::date and month < ${until}::date group by month) as t) as months,
            (select coalesce(sum(registrations), 0) from company_month where ${scope} and month < ${since}::date) as before,
            "kept"."used", "kept"."capacity", "kept"."unlimited",
            ${filter.nearestCap ? nearestCapSql(live) : sql`null`} as nearest,
            ${version} as version
          from (
            -- The cap usage's three sums in one read of the kept rows.
            select coalesce(sum(${kept.s.cappedRegistrations}), 0) as "used",
              coalesce(sum(${kept.s.cappedCapacity}), 0) as "capacity",
              coalesce(sum(${kept.s.unlimited}), 0) as "unlimited"
            from ${kept.s} where ${kept.where}
          ) as "kept"`
      } else {
        const setsRow = rowsOf(await db.execute(searchSetsSql(termMatch(term))))[0] as
          { courses: string[] | null; companies: string[] | null } | undefined
        const sets = { courses: setsRow?.courses ?? [], companies: setsRow?.companies ?? [] }
        const where = searchedDispatches(filter, term, sets)
        const d = dispatch
        statement = sql`
          with matched as materialized (
            select ${d.id} as id, ${d.registrationCount} as registration_count, ${d.registrationCap} as registration_cap
            from ${d} where ${where}
          ),
          -- One probe per matching dispatch (offset 0 keeps it a probe, not a join over every
          -- dispatch's months), index-only (dispatch_month_pkey INCLUDEs the count); the months
          -- before the window sum up under a null month.
          per_month as (
            select case when m.month < ${since}::date then null else m.month end as month, sum(m.registrations) as registrations
            from matched cross join lateral (
              select month, registrations from dispatch_month
              where dispatch_month.dispatch_id = matched.id and dispatch_month.month < ${until}::date offset 0
            ) as m
            group by 1
          )
          select
            (select coalesce(json_agg(json_build_object('month', to_char(t.month, 'YYYY-MM'), 'registrations', t.registrations)), '[]')
             from per_month as t where t.month is not null) as months,
            (select coalesce(sum(t.registrations), 0) from per_month as t where t.month is null) as before,
            (select coalesce(sum(registration_count) filter (where registration_cap > 0), 0) from matched) as used,
            (select coalesce(sum(registration_cap) filter (where registration_cap > 0), 0) from matched) as capacity,
            (select count(*) filter (where registration_cap <= 0) from matched) as unlimited,
            ${filter.nearestCap ? nearestCapSql(where) : sql`null`} as nearest,
            ${version} as version`
      }
      const row = rowsOf(await db.execute(statement))[0] ?? {}
      type Nearest = DashboardChartsRow['nearestCap'][number]
      return {
        months: json(row.months, []).map((m: { month: string; registrations: unknown }) => ({
          month: m.month,
          registrations: num(m.registrations),
        })),
        before: num(row.before),
        used: num(row.used),
        capacity: num(row.capacity),
        unlimited: num(row.unlimited),
        nearestCap: json<Nearest[]>(row.nearest, []).map((n) => ({
          id: String(n.id),
          courseTitle: String(n.courseTitle),
          destinationName: String(n.destinationName),
          registrationCount: num(n.registrationCount),
          registrationCap: num(n.registrationCap),
        })),
        version: toVersion(row.version),
      }
    },
  }
}
export type ChartsRepository = ReturnType<typeof createChartsRepository>
