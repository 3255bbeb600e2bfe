import {
  ownCompanyOnly,
  LEARNER_EXPORT_COLUMNS,
  LEARNER_REGISTRATIONS_LIMIT,
  formatDuration,
  learnersExportBaseName,
  type LearnerExportQuery,
  type LearnerListQuery,
  type LearnerListResponse,
  type LearnerRegistrationsResponse,
} from '@portal/shared'
import type { Db } from '../../db/client'
import { JsonAnswer, JsonText } from '../../lib/json-answer'
import { exportChunkRows, exportFile, readAhead, type ExportFile, type ExportTable } from '../../lib/table-export'
import { toPagination } from '../../lib/pagination'
import type { Viewer } from '../../lib/viewer'
import type { ReadCacheOptions } from '../../lib/versioned-cache'
import { cachePerDatabase, counted, createVersionedCache } from '../../lib/versioned-cache'
import { MIN_SUBSTRING_TERM } from '../../db/search'
import { audited, givenFilters, recordExport, type ExportContext, type ExportRecorder } from '../../lib/export-audit'
import type { LearnersRepository } from './learners.repository'
import type { LearnerFilter, LearnerOrder, LearnerOverview, LearnerRow, LearnerTotals } from './learners.sql'

type Log = { error(obj: unknown, msg: string): void }

/**
 * A search's kept totals, and whether one gathering of its matches does not answer it
 * (`listed`): more matches than LearnersRepository.gather reads, or a short term the probe found
 * common. Such a search's other pages and orders are read as a filter's, since gathering again
 * would only find that out again.
 */
type KeptTotals = LearnerTotals & { listed?: true }

const totalsCache = cachePerDatabase<KeptTotals>(500)
const pageCache = cachePerDatabase<string>(200)

/** The learners' table; the file is named `<company> - learners`. */
export function learnerExportTable(companyName: string): ExportTable<LearnerRow> {
  const kinds = [
    'text',
    'text',
    'text',
    'number',
    'number',
    'number',
    'number',
    'number',
    'number',
    'text',
    'date',
  ] as const
  return {
    name: learnersExportBaseName(companyName),
    sheetName: 'Learners',
    columns: LEARNER_EXPORT_COLUMNS.map((header, i) => ({ header, kind: kinds[i] })),
    cells: (r) => [
      r.firstName,
      r.lastName,
      r.email,
      r.registrations,
      r.completed,
      r.incomplete,
      r.notAttempted,
      r.averageScore === null ? null : Math.round(r.averageScore * 100) / 100,
      Math.round(r.totalSeconds),
      formatDuration(r.totalSeconds),
      r.lastAccess,
    ],
  }
}

/**
 * The company a caller reads: a client always its own, whatever it asks; staff the
 * one they picked (none picked: nothing).
 */
export function companyOf(viewer: Viewer, requested: string | undefined): string | null {
  if (ownCompanyOnly(viewer.role)) return viewer.companyId
  return requested?.trim() || null
}

/**
 * A search the learner list gathers (learners-search.sql.ts LEARNER_SEARCH_GATHER_ROWS): three
 * characters or more.
 */
const gathersLearners = (filter: LearnerFilter) => [...(filter.search?.trim() ?? '')].length >= MIN_SUBSTRING_TERM

/**
 * /api/learners: one row per learner across a company's dispatches, read from the
 * aggregate migration 0015 keeps. Totals and pages are cached per the company's learner version.
 */
export function createLearnersService(
  deps: { db: Db; learners: LearnersRepository; activity: ExportRecorder; log: Log },
  options: ReadCacheOptions = {},
) {
  const { db, learners, activity, log } = deps
  const totalsCached = options.cache === false ? createVersionedCache<KeptTotals>(0) : totalsCache(db)
  const pagesCached = options.cache === false ? createVersionedCache<string>(0) : pageCache(db)

  const filterOf = (companyId: string, q: LearnerExportQuery | LearnerListQuery): LearnerFilter => ({
    companyId,
    search: q.search?.trim() || undefined,
    courseId: q.courseId?.trim() || undefined,
    status: q.status || undefined,
  })
  const keyOf = (f: LearnerFilter) => JSON.stringify([f.companyId, f.search ?? '', f.courseId ?? '', f.status ?? ''])

  /**
   * A filter's totals: without a search from the kept counts of the overview (read with the
   * version and the courses in one statement); a search is counted once per version of the
   * company and cached.
   */
  async function totalsOf(filter: LearnerFilter, overview: LearnerOverview, dense = false): Promise<LearnerTotals> {
    if (!filter.search) return { total: overview.facetTotal ?? overview.total, capped: false }
    // A short term the probe found common is paged as a filter on every later page too.
    const count = async () => {
      const totals = await learners.totals(filter, dense)
      return dense ? { ...totals, listed: true as const } : totals
    }
    const read = await totalsCached.read(keyOf(filter), overview.version, () => counted(count()))
    return read.value
  }

  /** One page (its learners as JSON text), from its cache while the company's learners are unchanged. */
  async function pageOf(
    filter: LearnerFilter,
    order: LearnerOrder,
    limit: number,
    offset: number,
    version: number | null,
    totals: LearnerTotals,
  ) {
    if (offset >= totals.total) return '[]'
    const key = `${keyOf(filter)}:${order.sort}:${order.order}:${limit}:${offset}`
    const read = await pagesCached.read(key, version, async () => {
      const page = await learners.page(filter, order, limit, offset, totals.capped ? null : totals.total)
      return { value: page.rowsJson, version: page.version }
    })
    return read.value
  }

  /**
   * Any other filter: the totals first (a deep page of a known total is walked from the end);
   * `dense`: a short term the probe found common (counted without probing again).
   */
  async function listedOf(
    filter: LearnerFilter,
    order: LearnerOrder,
    limit: number,
    offset: number,
    overview: LearnerOverview,
    dense = false,
  ) {
    const totals = await totalsOf(filter, overview, dense)
    return { totals, rows: await pageOf(filter, order, limit, offset, overview.version, totals) }
  }

  /**
   * A search: its total and page from one gathering of its matches (LearnersRepository.gather),
   * unless both are cached; past what it gathers, the page is read as a search past the cap. A
   * term of one or two letters is gathered whole when the probe finds it rare; a common one is
   * counted to the cap and paged as any other filter. A search kept as one that a gathering
   * does not answer (KeptTotals.listed) goes to its page at once.
   */
  async function searchedOf(
    filter: LearnerFilter,
    order: LearnerOrder,
    limit: number,
    offset: number,
    overview: LearnerOverview,
  ) {
    const { version } = overview
    const key = keyOf(filter)
    const pageKey = `${key}:${order.sort}:${order.order}:${limit}:${offset}`
    const totals = totalsCached.get(key, version)
    const rows = pagesCached.get(pageKey, version)
    if (totals && rows) return { totals, rows }
    if (totals?.listed) return { totals, rows: await pageOf(filter, order, limit, offset, version, totals) }
    const short = !gathersLearners(filter)
    if (short && !(await learners.sparse(filter))) return listedOf(filter, order, limit, offset, overview, true)
    const read = await learners.gather(filter, order, limit, offset, short)
    if (read.rowsJson === null) {
      totalsCached.set(key, read.version, { ...read.totals, listed: true })
      return { totals: read.totals, rows: await pageOf(filter, order, limit, offset, version, read.totals) }
    }
    totalsCached.set(key, read.version, read.totals)
    pagesCached.set(pageKey, read.version, read.rowsJson)
    return { totals: read.totals, rows: read.rowsJson }
  }

  return {
    /** The list's answer, its learners written as JSON by PostgreSQL (learners.sql.ts rowsJsonSql). */
    async list(viewer: Viewer, query: LearnerListQuery): Promise<JsonAnswer<LearnerListResponse>> {
      const companyId = companyOf(viewer, query.companyId)
      if (!companyId) {
        const pagination = toPagination(0, query.page, query.pageSize)
        return new JsonAnswer<LearnerListResponse>({
          learners: [],
          pagination,
          totalCapped: false,
          courses: [],
          building: false,
        })
      }
      const filter = filterOf(companyId, query)
      const order: LearnerOrder = { sort: query.sort, order: query.order }
      const offset = (query.page - 1) * query.pageSize
      const overview = await learners.overview(filter)
      const { courses, building } = overview
      const { totals, rows } = filter.search
        ? await searchedOf(filter, order, query.pageSize, offset, overview)
        : await listedOf(filter, order, query.pageSize, offset, overview)
      return new JsonAnswer<LearnerListResponse>({
        learners: new JsonText(rows),
        pagination: toPagination(totals.total, query.page, query.pageSize),
        totalCapped: totals.capped,
        courses,
        building,
      })
    },

    async registrations(viewer: Viewer, key: string, requested: string | undefined) {
      const companyId = companyOf(viewer, requested)
      if (!companyId) return { learner: null, registrations: [] } satisfies LearnerRegistrationsResponse
      const [learner, rows] = await Promise.all([
        learners.learner(companyId, key),
        learners.registrations(companyId, key, LEARNER_REGISTRATIONS_LIMIT),
      ])
      return {
        learner,
        registrations: rows.map((r) => ({
          id: r.id,
          dispatchId: r.dispatchId,
          courseId: r.courseId,
          courseTitle: r.courseTitle,
          completionStatus: r.completionStatus,
          successStatus: r.successStatus,
          score: r.scoreScaled === null ? null : r.scoreScaled / 100,
          totalTimeTracked: Math.round(r.totalSecondsTracked),
          firstAccessDate: r.firstAccessDate?.toISOString() ?? null,
          lastAccessDate: r.lastAccessDate?.toISOString() ?? null,
          completedDate: r.completedDate?.toISOString() ?? null,
        })),
      } satisfies LearnerRegistrationsResponse
    },

    /** Every learner of the filters, in the list's order, keyset chunks over its sort index. */
    async export(viewer: Viewer, ctx: ExportContext, query: LearnerExportQuery): Promise<ExportFile> {
      const companyId = companyOf(viewer, query.companyId)
      const filter = companyId ? filterOf(companyId, query) : null
      const order: LearnerOrder = { sort: query.sort, order: query.order }
      async function* chunks(): AsyncGenerator<LearnerRow[]> {
        if (!filter) return
        let after: { key: string; hash: bigint } | null = null
        const size = exportChunkRows(query.format)
        for (;;) {
          const rows = await learners.chunk(filter, order, after, size)
          if (rows.length > 0) yield rows.map(({ sortKey: _k, ...row }) => row)
          if (rows.length < size) return
          const last = rows[rows.length - 1]!
          after = { key: last.sortKey, hash: last.learnerHash }
        }
      }
      const details = { report: 'learners', companyId, format: query.format, filters: givenFilters(query) }
      const rows = audited(chunks, (rowCount, completed) =>
        recordExport(activity, log, ctx, { ...details, rowCount, completed }),
      )
      const name = companyId ? ((await learners.companyName(companyId)) ?? companyId) : 'no company'
      return exportFile(query.format, learnerExportTable(name), await readAhead(rows))
    },
  }
}
export type LearnersService = ReturnType<typeof createLearnersService>
