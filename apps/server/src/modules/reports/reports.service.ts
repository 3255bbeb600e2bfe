import { dayEndExclusive, type ReportQuery, type ReportResponse } from '@portal/shared'
import type { DbOrTx } from '../../db/client'
import { AppError } from '../../lib/app-error'
import { JsonAnswer, JsonText } from '../../lib/json-answer'
import { seekDay } from '../../lib/day-seek'
import { toPagination } from '../../lib/pagination'
import { toDispatch, type DispatchRow } from '../dispatches/dispatches.mapper'
import type { Viewer } from '../../lib/viewer'
import type { ReadCacheOptions } from '../../lib/versioned-cache'
import type { DispatchesService } from '../dispatches/dispatches.service'
import { cachePerDatabase, counted, createVersionedCache } from '../../lib/versioned-cache'
import { gathersMatches, isDaySeekable, isKeptFilter, keptTotals, type ReportTotals } from './reports.filters'
import type { RegistrationFilter, ReportsRepository } from './reports.repository'

/**
 * A page at least this deep is placed with the kept day counts (seekPage); a shallower one walks
 * the index from the start, which costs less than reading a dispatch's day counts.
 */
export const DAY_SEEK_MIN_OFFSET = 2_000

export const REPORT_MESSAGES = {
  endBeforeStart: 'End date cannot be before start date.',
  invalidDate: 'Invalid date. Use YYYY-MM-DD.',
} as const

/** Totals of recent report filters, per dispatch and filter. */
const totalsCache = cachePerDatabase<ReportTotals>(500)
/** Recent report pages, read again only after the dispatch's registrations changed. */
const pageCache = cachePerDatabase<string>(200)

const filterKey = (filter: RegistrationFilter) =>
  JSON.stringify([
    filter.dispatchId,
    filter.search?.trim() ?? '',
    filter.status ?? '',
    filter.from?.getTime() ?? null,
    filter.before?.getTime() ?? null,
    Boolean(filter.repeatLearners),
  ])

/** A YYYY-MM-DD day as its first instant in UTC; a day that does not exist (02-30) is refused. */
function dayStart(day: string, field: 'startDate' | 'endDate'): Date {
  const date = new Date(`${day}T00:00:00.000Z`)
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== day) {
    const message = REPORT_MESSAGES.invalidDate
    throw new AppError('RULE_VIOLATION', message, { details: [{ field, message }] })
  }
  return date
}

/** The report's filters as SQL bounds (also the export's); refused days are a 400. */
export function reportFilterOf(
  dispatchId: string,
  query: Pick<ReportQuery, 'search' | 'status' | 'startDate' | 'endDate' | 'repeatLearners'>,
): RegistrationFilter {
  const start = query.startDate || undefined
  const end = query.endDate || undefined
  const filter: RegistrationFilter = { dispatchId, search: query.search, status: query.status || undefined }
  if (query.repeatLearners) filter.repeatLearners = true
  if (start) filter.from = dayStart(start, 'startDate')
  if (end) {
    dayStart(end, 'endDate') // refuses a day that does not exist
    // No bound after 9999-12-31, whose next midnight PostgreSQL cannot read.
    const before = dayEndExclusive(end)
    if (before) filter.before = before
  }
  // ISO days compare as strings.
  if (start && end && end < start) {
    const message = REPORT_MESSAGES.endBeforeStart
    throw new AppError('RULE_VIOLATION', message, { details: [{ field: 'endDate', message }] })
  }
  return filter
}

/**
 * The completion report of one dispatch (docs/product-rules.md §2 dispatch details) and the registration count.
 * Days are UTC days: the mirror stores instants, and the report has no user time zone.
 */
export function createReportsService(
  deps: { db: DbOrTx; reports: ReportsRepository; dispatches: DispatchesService },
  options: ReadCacheOptions = {},
) {
  const { db, reports, dispatches } = deps
  const totalsCached = options.cache === false ? createVersionedCache<ReportTotals>(0) : totalsCache(db)
  const pagesCached = options.cache === false ? createVersionedCache<string>(0) : pageCache(db)

  /**
   * Counted again only when the dispatch's registrations changed since (the count of
   * distinct learners reads every matching row of a 100,000-registration dispatch).
   */
  async function totalsOf(filter: RegistrationFilter, version: number | null): Promise<ReportTotals> {
    const read = await totalsCached.read(filterKey(filter), version, () => counted(reports.totals(filter)))
    return read.value
  }

  /**
   * A deep page of a filter whose rows the kept day counts place (no search, whole UTC days):
   * read from the end of the day holding its first row (lib/day-seek.ts), so the index is walked
   * within that day rather than over every newer registration. Null where the counts do not
   * place it: a shallow page, the never-accessed rows (they come last and have no day), or a
   * dispatch whose counts wait for their build.
   */
  async function seekPage(filter: RegistrationFilter, limit: number, offset: number) {
    if (offset < DAY_SEEK_MIN_OFFSET || !isDaySeekable(filter)) return null
    const { days, building } = await reports.accessDays(filter)
    const seek = building ? null : seekDay(days, offset, filter.before)
    if (!seek) return null
    // The bounded filter's rows are the accessed ones of the days not skipped (never-accessed
    // rows fall outside any upper bound): the exact total a page walked from the end needs.
    const accessed = days.reduce((sum, day) => sum + day.rows, 0)
    return reports.page({ ...filter, before: seek.before }, limit, offset - seek.skipped, accessed - seek.skipped)
  }

  /** One page, from its cache while the dispatch's registrations are unchanged. */
  async function pageOf(
    filter: RegistrationFilter,
    limit: number,
    offset: number,
    version: number | null,
    totals: ReportTotals,
  ) {
    if (offset >= totals.total && !totals.capped) return '[]'
    const key = `${filterKey(filter)}:${limit}:${offset}`
    const read = await pagesCached.read(key, version, async () => {
      const { rowsJson, version: at } =
        (!totals.capped && (await seekPage(filter, limit, offset))) ||
        (await reports.page(filter, limit, offset, totals.capped ? null : totals.total))
      return { value: rowsJson, version: at }
    })
    return read.value
  }

  /**
   * A search of two characters or more: its totals and page from one gathering of its matches
   * (ReportsRepository.gather), unless both are cached; past what it gathers, the page is read
   * as a search past the cap.
   */
  async function searchedOf(filter: RegistrationFilter, limit: number, offset: number, version: number | null) {
    const key = filterKey(filter)
    const pageKey = `${key}:${limit}:${offset}`
    const totals = totalsCached.get(key, version)
    const rowsJson = pagesCached.get(pageKey, version)
    if (totals && rowsJson) return { totals, rowsJson }
    const read = await reports.gather(filter, limit, offset)
    totalsCached.set(key, read.version, read.totals)
    if (read.rowsJson === null)
      return { totals: read.totals, rowsJson: await pageOf(filter, limit, offset, version, read.totals) }
    pagesCached.set(pageKey, read.version, read.rowsJson)
    return { totals: read.totals, rowsJson: read.rowsJson }
  }

  /**
   * Any other filter: the totals first, they tell whether a deep page is nearer the end (walked
   * from there); without a search or a window they are the kept counts, read with the dispatch.
   */
  async function listedOf(filter: RegistrationFilter, dispatch: DispatchRow, limit: number, offset: number) {
    const version = dispatch.registrationVersion ?? null
    const totals = isKeptFilter(filter)
      ? keptTotals(dispatch.registrationStats, filter.status)
      : await totalsOf(filter, version)
    return { totals, rowsJson: await pageOf(filter, limit, offset, version, totals) }
  }

  return {
    async dispatchReport(viewer: Viewer, dispatchId: string, query: ReportQuery): Promise<JsonAnswer<ReportResponse>> {
      const filter = reportFilterOf(dispatchId, query)
      const row = await dispatches.requireVisible(viewer, dispatchId)
      const offset = (query.page - 1) * query.pageSize
      const version = row.registrationVersion ?? null
      // A search of two characters or more: totals and page at once (searchedOf).
      const { totals, rowsJson } = gathersMatches(filter)
        ? await searchedOf(filter, query.pageSize, offset, version)
        : await listedOf(filter, row, query.pageSize, offset)
      // The registrations come written as JSON by PostgreSQL (reports.repository.ts rowsJsonSql).
      return new JsonAnswer<ReportResponse>({
        dispatch: toDispatch(row, viewer.role),
        registrations: new JsonText(rowsJson),
        pagination: toPagination(totals.total, query.page, query.pageSize),
        distinctLearners: totals.distinctLearners,
        totalCapped: totals.capped,
      })
    },

    async registrationCount(): Promise<{ databaseCount: number }> {
      return { databaseCount: await reports.countRegistrations() }
    },
  }
}
export type ReportsService = ReturnType<typeof createReportsService>
