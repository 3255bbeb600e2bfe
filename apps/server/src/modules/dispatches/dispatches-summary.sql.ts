import { sql, type SQL } from 'drizzle-orm'
import { dispatch, dispatchCourseSummary, dispatchStat, dispatchSummary } from '../../db/schema'
import type { DispatchListQuery } from '@portal/shared'
import { enabledIs, keptScope, searchesIds, searchSetsSql, versionSql } from '../../db/dispatch-search'
import { matchesTermMatch, type TermMatch } from '../../db/search'

/**
 * The dispatch list's summary cards and cache versions as SQL: read from the
 * aggregates the triggers of migration 0008 keep per company and per course, so no request
 * counts the dispatches of its filter one by one.
 */

/**
 * What a list statement reads: whose list, which status and how a search matches
 * decide its text; the company and the search's pattern are values, placeholders in a statement
 * kept for reuse (db/statement.ts).
 */
export interface ListInput {
  /** A client's company (its id, or a placeholder for it); undefined for staff (every company). */
  companyId?: unknown
  status: DispatchListQuery['status']
  /** The search as a match (db/search.ts termMatch); null without one. */
  search: TermMatch | null
}

/** The status as part of the text (a literal: it is part of a kept statement's shape). */

/** Live dispatches of the filter's scope and status, search aside (what a search page walks). */
function scopeSql(filter: ListInput): SQL {
  const { s, where } = keptScope(filter)
  return sql`(select coalesce(sum(${s.dispatches}), 0) from ${s} where ${where})`
}

/** The summary of a filter without a search: a client's two rows, or the kept total of every company's. */
export function keptSummarySql(filter: ListInput): SQL {
  const { s, where } = keptScope(filter)
  return sql`
    select
      coalesce(sum(${s.dispatches}), 0) as "totalDispatches",
      coalesce(sum(${s.dispatches}) filter (where ${s.enabled}), 0) as "activeDispatches",
      coalesce(sum(${s.registrations}), 0) as "registrations",
      coalesce(sum(${s.cappedRegistrations}), 0) as "cappedRegistrations",
      coalesce(sum(${s.cappedCapacity}), 0) as "cappedCapacity",
      coalesce(sum(${s.unlimited}) filter (where ${s.enabled}), 0) as "unlimitedActive",
      coalesce(sum(${s.activeRegistrations}), 0) as "activeRegistrations",
      ${versionSql(filter)} as "version"
    from ${s}
    where ${where}`
}

/** One signed row per dispatch of `where` (for the parts of a search summary counted directly). */
function perDispatch(sign: 1 | -1, where: SQL): SQL {
  const d = dispatch
  return sql`
    select ${sql.raw(String(sign))} as sign, ${d.enabled} as enabled, 1 as dispatches,
      ${d.registrationCount}::bigint as registrations,
      case when ${d.registrationCap} > 0 then ${d.registrationCount} else 0 end::bigint as capped_registrations,
      case when ${d.registrationCap} > 0 then ${d.registrationCap} else 0 end::bigint as capped_capacity,
      case when ${d.registrationCap} <= 0 then 1 else 0 end as unlimited,
      coalesce((select ${dispatchStat.registrations} from ${dispatchStat} where ${dispatchStat.dispatchId} = ${d.id}), 0)::bigint
        as active_registrations
    from ${d}
    where ${where}`
}

/**
 * The kept rows of the matched keys, joined to them: `key = any(array)` compared every row of
 * the table with every matched key in turn (a common term matches dozens); joined, the plan
 * hashes the keys (or looks each up by the primary key), one probe a row.
 */
function keptRows(
  table: typeof dispatchSummary | typeof dispatchCourseSummary,
  key: typeof dispatchSummary.companyId | typeof dispatchCourseSummary.courseId,
  ids: SQL,
  status: ListInput['status'],
): SQL {
  return sql`
    select 1 as sign, ${table.enabled} as enabled, ${table.dispatches} as dispatches,
      ${table.registrations} as registrations, ${table.cappedRegistrations} as capped_registrations,
      ${table.cappedCapacity} as capped_capacity, ${table.unlimited} as unlimited,
      ${table.activeRegistrations} as active_registrations
    from unnest(${ids}) as "key"("id") join ${table} on ${key} = "key"."id"
    where cardinality(${ids}) > 0 and ${enabledIs(status, table.enabled)}`
}

/**
 * The summary of a client's search: its matches are its own few dispatches, summed directly.
 */
export function ownSearchSummarySql(filter: ListInput, where: SQL): SQL {
  return summaryOf(filter, [perDispatch(1, where)])
}

/**
 * The summary of a staff search, with what the term matched (`courses`, `companies`) for the
 * page: the look-up runs inline, once (a CTE), so the request makes one statement of it and
 * its summary. By inclusion and exclusion over what the term matched: the kept sums
 * of the matching courses, plus those of the matching companies, minus the dispatches counted
 * twice (a matching course at a matching company), plus the dispatches matched by id alone.
 */
export function staffSearchSummarySql(filter: ListInput, search: TermMatch, options: { opaque: boolean }): SQL {
  // opaque: the term only as sub-selects, so one generic plan serves every term (MatchOptions.opaque).
  const opaque = { opaque: options.opaque }
  const d = dispatch
  const c = dispatchCourseSummary
  const s = dispatchSummary
  const courses = sql`(select "courses" from "search_sets")::text[]`
  const companies = sql`(select "companies" from "search_sets")::text[]`
  const status = enabledIs(filter.status, d.enabled)
  // Each part says first, on the look-up's arrays alone, when it has nothing to read: the plan
  // checks that once and skips the part's scan (most terms match courses or companies, not both).
  const parts = [
    keptRows(c, c.courseId, courses, filter.status),
    keptRows(s, s.companyId, companies, filter.status),
    // Only a term that matched both a course and a company counts a dispatch twice (a company's
    // term would otherwise walk all of that company's dispatches to find no matching course).
    perDispatch(
      -1,
      sql`cardinality(${courses}) > 0 and cardinality(${companies}) > 0
        and ${d.removedAt} is null and ${status} and ${d.courseId} = any(${courses}) and ${d.destinationId} = any(${companies})`,
    ),
  ]
  if (searchesIds(search)) {
    parts.push(
      perDispatch(
        1,
        sql`${d.removedAt} is null and ${status} and ${matchesTermMatch(sql`${d.id}`, search, opaque)}
            and not (${d.courseId} = any(${courses}) or ${d.destinationId} = any(${companies}))`,
      ),
    )
  }
  return sql`with "search_sets" as (${searchSetsSql(search, opaque)})
    ${summaryOf(filter, parts, sql`, ${courses} as "courses", ${companies} as "companies"`)}`
}

/** The summary cards, version and scope count of a search from its signed parts. */
function summaryOf(filter: ListInput, parts: SQL[], extra: SQL = sql``): SQL {
  return sql`
    select
      coalesce(sum(sign * dispatches), 0) as "totalDispatches",
      coalesce(sum(sign * dispatches) filter (where enabled), 0) as "activeDispatches",
      coalesce(sum(sign * registrations), 0) as "registrations",
      coalesce(sum(sign * capped_registrations), 0) as "cappedRegistrations",
      coalesce(sum(sign * capped_capacity), 0) as "cappedCapacity",
      coalesce(sum(sign * unlimited) filter (where enabled), 0) as "unlimitedActive",
      coalesce(sum(sign * active_registrations), 0) as "activeRegistrations",
      ${versionSql(filter)} as "version",
      ${scopeSql(filter)} as "scopeDispatches"${extra}
    from (${sql.join(parts, sql` union all `)}) as parts`
}
