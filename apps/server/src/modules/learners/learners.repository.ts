import { and, asc, eq, isNull, sql, type SQL } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { companyShownName, progressColumns } from '../../db/columns'
import { company, companyLearnerFacet, companyLearnerStat, dispatch, registration } from '../../db/schema'
import { readJsonPage, type JsonPage } from '../../db/json-rows'
import { nearerEnd, searchedPage, type SearchPath } from '../../db/search'
import { placeholders, runStatement, statementCache, toVersion } from '../../db/statement'
import { createLearnerSearch } from './learners-search.sql'
import {
  L,
  LP,
  SORT_KEYS,
  facetOf,
  inputOf,
  matchSql,
  orderOf,
  rowColumns,
  rowsJsonSql,
  versionOf,
  whereOf,
  whereSql,
  type LearnerFilter,
  type LearnerOrder,
  type LearnerOverview,
  type LearnerRow,
} from './learners.sql'

/**
 * Up to this many learners, a course filter's page is read from the course's learners, sorted,
 * rather than by walking the company's sort index: sorting this many rows costs a few
 * milliseconds, while above it the course is common enough for the walk to meet a page of its
 * learners soon.
 */
export const FEW_FACET_ROWS = 10_000

/** The key of a learner given as its e-mail (or `id:<learner id>` for one without), as learner_hash is made. */
export const learnerHashOf = (key: string) =>
  key.startsWith('id:') && !key.includes('@')
    ? sql`hashtextextended('i:' || ${key.slice(3)}, 0)`
    : sql`hashtextextended('e:' || lower(${key}), 0)`

/** The overview's values, as placeholders (db/statement.ts). */
const O = placeholders('companyId', 'facet')
const overviewStatements = statementCache(2)

/**
 * The company's learner count, version and build state, the facet's count when a course or
 * status is chosen, and the company's courses for the filter, in one kept statement: it runs
 * with every page of the learners list, built and planned once per shape (with or without a facet).
 */
function overviewStatement(withFacet: boolean) {
  return overviewStatements.get(withFacet ? 'facet' : 'all', () => {
    // Read index-only from dispatch_company_courses_idx (course_key is the lowered title).
    const courses = sql`(
        select coalesce(json_agg(json_build_object('id', c.course_id, 'title', c.course_title)
          order by c.course_key, c.course_id), '[]'::json)
        from (
          select distinct on (${dispatch.courseKey}, ${dispatch.courseId})
            ${dispatch.courseId} as course_id, ${dispatch.courseTitle} as course_title, ${dispatch.courseKey} as course_key
          from ${dispatch}
          where ${and(eq(dispatch.destinationId, O.companyId), isNull(dispatch.removedAt))}
          order by ${dispatch.courseKey}, ${dispatch.courseId}
        ) as c)`
    const facetTotal = withFacet
      ? sql`(select ${companyLearnerFacet.learners} from ${companyLearnerFacet}
            where ${and(eq(companyLearnerFacet.companyId, O.companyId), eq(companyLearnerFacet.facet, O.facet))})`
      : sql`null`
    return sql`
        select s.learners as "total", s.version as "version", coalesce(s.building, false) as "building", ${facetTotal} as "facetTotal", ${courses} as "courses"
        from (select 1) as one
        left join ${companyLearnerStat} as s on s.company_id = ${O.companyId}`
  })
}

/** Built page statements by shape (db/statement.ts). */
const pageStatements = statementCache(500)

export function createLearnersRepository(db: DbOrTx) {
  return {
    ...createLearnerSearch(db),

    /**
     * One page, deferred join: the offset is walked over the sort key's index alone (learner
     * hashes), only the page's rows are read from the table. A page in the second half of a
     * known total is walked from the other end (the last page costs what the first does).
     *
     * A search takes its page as db/search.ts says (searchWalkRows): from its matches, sorted,
     * or past the cap from a bounded walk of the order first.
     */
    async page(
      filter: LearnerFilter,
      order: LearnerOrder,
      limit: number,
      offset: number,
      total: number | null,
    ): Promise<JsonPage> {
      const term = filter.search?.trim() ?? ''
      const walk = nearerEnd(total, limit, offset)
      const { input, values, shape } = inputOf(filter)
      const run = { ...values, limit: walk.limit, offset: walk.offset }
      const read = async (source: SQL | typeof L, where: SQL | undefined, path: SearchPath, walkRows: number) => {
        const key = JSON.stringify(['page', ...shape, order.sort, order.order, path, walk.fromEnd])
        const statement = pageStatements.get(key, () => {
          const ids = db
            .select({ hash: sql<bigint>`${L.learnerHash}`.as('page_hash') })
            .from(source as typeof L)
            .where(where)
            .orderBy(...orderOf(order, walk.fromEnd))
            .limit(LP.limit)
            .offset(LP.offset)
            .as('page')
          // The page's learners as JSON, with the company's learner version read in the same
          // statement (the same snapshot).
          return sql`select ${rowsJsonSql(order)} as "rowsJson", count(*) as "rowCount", ${versionOf(LP.companyId)} as "version"
            from ${ids} join ${L} on ${L.companyId} = ${LP.companyId} and ${L.learnerHash} = ${ids.hash}`
        })
        return readJsonPage(await runStatement(db, statement, { ...run, walkRows }))
      }
      return searchedPage({
        table: L,
        term,
        total,
        // A course's learners are a facet of the company's: its kept count (the total) tells how
        // rare it is, which the planner cannot tell from the facets array, and walking the sort
        // index for a course few learners took passes nearly every learner of a large company.
        fewMatches: filter.courseId !== undefined && total !== null && total <= FEW_FACET_ROWS,
        limit,
        offset,
        where: whereSql(input),
        unsearched: () => whereSql({ ...input, search: null }),
        match: () => matchSql(input.search!),
        order: orderOf(order),
        read,
        walkRows: LP.walkRows,
      })
    },

    /** The export's chunk after `after` (the previous chunk's last sort key and learner), keyset over the sort index. */
    async chunk(
      filter: LearnerFilter,
      order: LearnerOrder,
      after: { key: string; hash: bigint } | null,
      limit: number,
    ): Promise<(LearnerRow & { sortKey: string })[]> {
      const { key, type } = SORT_KEYS[order.sort]
      const cmp = order.order === 'desc' ? sql`<` : sql`>`
      const seek = after
        ? sql`(${key}, ${L.learnerHash}) ${cmp} (cast(${after.key} as ${type}), cast(${after.hash.toString()} as bigint))`
        : sql`true`
      return db
        .select({ ...rowColumns, sortKey: sql<string>`(${key})::text` })
        .from(L)
        .where(and(whereOf(filter), seek))
        .orderBy(...orderOf(order))
        .limit(limit)
    },

    /** The company's shown name (an admin's rename first), for the export's file name; null if unknown. */
    async companyName(companyId: string): Promise<string | null> {
      const [row] = await db.select({ name: companyShownName }).from(company).where(eq(company.id, companyId))
      return row?.name ?? null
    },

    /** The learner's summary row in the company, or null. */
    async learner(companyId: string, key: string) {
      const [row] = await db
        .select({ email: L.email, firstName: L.firstName, lastName: L.lastName })
        .from(L)
        .where(and(eq(L.companyId, companyId), eq(L.learnerHash, learnerHashOf(key))))
      return row ?? null
    },

    /** The learner's live registrations in the company's live dispatches, newest access first. */
    async registrations(companyId: string, key: string, limit: number) {
      return db
        .select({
          id: registration.id,
          dispatchId: registration.dispatchId,
          courseId: dispatch.courseId,
          courseTitle: dispatch.courseTitle,
          ...progressColumns,
        })
        .from(registration)
        .innerJoin(dispatch, eq(dispatch.id, registration.dispatchId))
        .where(
          and(
            eq(registration.learnerHash, sql`${learnerHashOf(key)}`),
            isNull(registration.removedAt),
            isNull(dispatch.removedAt),
            eq(dispatch.destinationId, companyId),
          ),
        )
        .orderBy(sql`${registration.lastAccessDate} desc nulls last`, asc(registration.id))
        .limit(limit)
    },

    /**
     * What every list request needs before its page, in one statement (one round trip): the
     * company's kept learner count and version, the kept count of the filter's course/status
     * facet (migration 0017; null without one), and the company's courses (its live
     * dispatches') for the course filter.
     */
    async overview(filter: LearnerFilter): Promise<LearnerOverview> {
      const facet = facetOf(filter)
      const [row] = (await runStatement(db, overviewStatement(facet !== null), {
        companyId: filter.companyId,
        facet,
      })) as {
        total: number | string | null
        version: string | number | null
        building: boolean | null
        facetTotal: number | string | null
        courses: unknown
      }[]
      const courseList = (typeof row?.courses === 'string' ? JSON.parse(row.courses) : row?.courses) as
        { id: string; title: string }[] | null
      return {
        total: Number(row?.total ?? 0),
        facetTotal: facet ? Number(row?.facetTotal ?? 0) : null,
        version: toVersion(row?.version),
        courses: courseList ?? [],
        building: row?.building === true,
      }
    },
  }
}
export type LearnersRepository = ReturnType<typeof createLearnersRepository>
