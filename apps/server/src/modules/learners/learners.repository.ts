import { and, asc, eq, isNull, sql, type SQL } from 'drizzle-orm'
import type { CompletionStatus, LearnerSort } from '@portal/shared'
import type { DbOrTx } from '../../db/client'
import { companyLearner, companyLearnerFacet, companyLearnerStat, dispatch, registration } from '../../db/schema'
import { MIN_SUBSTRING_TERM, matchesTerm, nearerEnd, searchedPage } from '../../db/search'
import { progressColumns } from '../reports/report-export'

export interface LearnerFilter {
  companyId: string
  search?: string | undefined
  courseId?: string | undefined
  status?: CompletionStatus | undefined
}

export interface LearnerOrder {
  sort: LearnerSort
  order: 'asc' | 'desc'
}

/** The learner list's kept figures and course choices for a filter (LearnersRepository.overview). */
export interface LearnerOverview {
  /** The company's learners. */
  total: number
  /** The learners with the filter's course/status facet; null when the filter has none. */
  facetTotal: number | null
  /** The company's learner version (null: the company has never had a learner). */
  version: number | null
  /** Waiting for its bulk build (migration 0021). */
  building: boolean
  courses: { id: string; title: string }[]
}

export interface LearnerTotals {
  total: number
  /** A search matched more than LEARNER_SEARCH_COUNT_CAP learners: the total stops there. */
  capped: boolean
}

export type LearnerRow = Omit<
  typeof companyLearner.$inferSelect,
  'facets' | 'companyId' | 'nameKey' | 'emailKey' | 'scoreKey' | 'accessKey'
>

/** Issue #16: like the report's search, a learner search counts its matches exactly up to this many. */
export const LEARNER_SEARCH_COUNT_CAP = 1_000

/**
 * Issue #13: a search of three characters or more gathers at most this many of its matches once,
 * through the trigram index, and counts them and takes its page from them in one statement
 * (LearnersRepository.gather), as the report does (REPORT_SEARCH_GATHER_ROWS). A surname matches
 * about 2,000 learners of the bench's 100,000-learner company: counting them walked the company's
 * rows (28 ms), then the page sorted them from the index (4 ms); gathered, 5 ms.
 */
export const LEARNER_SEARCH_GATHER_ROWS = 3_000

/** A search the learner list gathers (above): three characters or more. */
export const gathersLearners = (filter: LearnerFilter) =>
  [...(filter.search?.trim() ?? '')].length >= MIN_SUBSTRING_TERM

const L = companyLearner

/**
 * Each sort key, a column with an index (company_id, key, learner_hash): the plain figures
 * (migration 0015) and the stored keys (0017: lowered name and e-mail, never-accessed learners
 * the oldest, unscored ones below every score). A page's offset is an index-only walk.
 * `type` casts a keyset value back.
 */
const SORT_KEYS: Record<LearnerSort, { key: SQL; type: SQL }> = {
  name: { key: sql`${L.nameKey}`, type: sql`text` },
  email: { key: sql`${L.emailKey}`, type: sql`text` },
  courses: { key: sql`${L.registrations}`, type: sql`integer` },
  completed: { key: sql`${L.completed}`, type: sql`integer` },
  inProgress: { key: sql`${L.incomplete}`, type: sql`integer` },
  notStarted: { key: sql`${L.notAttempted}`, type: sql`integer` },
  averageScore: { key: sql`${L.scoreKey}`, type: sql`double precision` },
  totalTime: { key: sql`${L.totalSeconds}`, type: sql`double precision` },
  lastAccess: { key: sql`${L.accessKey}`, type: sql`timestamptz` },
}

/** Name and e-mail as one text, as the trigram index company_learner_search_idx holds it. */
const LEARNER_TEXT = sql`lower(${L.firstName} || ' ' || ${L.lastName} || ' ' || ${L.email})`

/** The facet a course and/or status filter asks for (migration 0015's facets). */
function facetOf(filter: LearnerFilter): string | null {
  if (filter.courseId && filter.status) return `cs:${filter.courseId}:${filter.status}`
  if (filter.courseId) return `c:${filter.courseId}`
  if (filter.status) return `s:${filter.status}`
  return null
}

/**
 * A learner has the facet of a status exactly when they have a registration in it, so a status
 * filter alone is a range of that status's count, which every sort index carries (migration
 * 0018): a filtered page is an index-only walk. Sorted by that count, the walk starts at the first
 * match: a list of learners who have not started something, sorted by not started, no longer
 * walks past every learner with none (84 ms for a page of the bench's big company); a deep page by
 * name no longer reads the company's table (page 312 of those in progress: 149 ms to 7 ms).
 */
const STATUS_COUNT: Record<CompletionStatus, SQL> = {
  completed: sql`${L.completed}`,
  incomplete: sql`${L.incomplete}`,
  'not attempted': sql`${L.notAttempted}`,
}

function whereOf(filter: LearnerFilter): SQL {
  const conditions = [eq(L.companyId, filter.companyId)]
  const term = filter.search?.trim()
  if (term) conditions.push(searchOf(term))
  if (filter.status) conditions.push(sql`${STATUS_COUNT[filter.status]} > 0`)
  const facet = filter.courseId ? facetOf(filter) : null
  if (facet) conditions.push(sql`${L.facets} @> array[${facet}]::text[]`)
  return and(...conditions)!
}

const searchOf = (term: string) => matchesTerm(LEARNER_TEXT, term, { lowered: true })

/** The company's learner version (migration 0015), as a column of the statement reading its learners. */
const versionOf = (companyId: string) =>
  sql<
    number | null
  >`(select ${companyLearnerStat.version} from ${companyLearnerStat} where ${companyLearnerStat.companyId} = ${companyId})`.mapWith(
    Number,
  )

/** The key of a learner given as its e-mail (or `id:<learner id>` for one without), as learner_hash is made. */
export const learnerHashOf = (key: string) =>
  key.startsWith('id:') && !key.includes('@')
    ? sql`hashtextextended('i:' || ${key.slice(3)}, 0)`
    : sql`hashtextextended('e:' || lower(${key}), 0)`

const rowColumns = {
  learnerHash: L.learnerHash,
  email: L.email,
  learnerId: L.learnerId,
  firstName: L.firstName,
  lastName: L.lastName,
  registrations: L.registrations,
  completed: L.completed,
  incomplete: L.incomplete,
  notAttempted: L.notAttempted,
  averageScore: L.averageScore,
  totalSeconds: L.totalSeconds,
  lastAccess: L.lastAccess,
}

/** Learners a search's count reads first, in primary-key order (a hash: any of the company's). */
export const LEARNER_SEARCH_PROBE_ROWS = 1_000
/** A term matching one learner in this many of the probe, or more, is dense (below). */
const DENSE_ONE_IN = 10

/**
 * The count of a filter's learners (a search's up to the cap, LEARNER_SEARCH_COUNT_CAP + 1) and
 * the company's version, in one statement. A search (of one or two letters: longer ones gather,
 * LearnersRepository.gather) first reads LEARNER_SEARCH_PROBE_ROWS of the company's learners in
 * primary-key order and tests them. That is the whole company if it has fewer; a term dense in
 * them (one in ten or more) walks the company's rows in that order to the cap, a few thousand rows;
 * a rarer one is counted through the trigram index, a tenth of the company at most. Either alone
 * was slow for some terms on the bench's 100,000-learner company: the walk read 44 ms for "We"
 * (1,919 matches), the index would read every learner for a term in every e-mail. Unordered, the
 * cap's limit read the whole table from its start (17,434 pages).
 */
/** The probe (above) as a subquery `probe` of one row: hits among n learners read. */
function probeOf(filter: LearnerFilter): SQL {
  return sql`(select count(*) filter (where ${whereOf(filter)}) as hits, count(*) as n
    from (select * from ${L} where ${eq(L.companyId, filter.companyId)}
          order by ${L.companyId}, ${L.learnerHash} limit ${sql.raw(String(LEARNER_SEARCH_PROBE_ROWS))}) as ${L}) as probe`
}

export function learnerTotalsQuery(db: DbOrTx, filter: LearnerFilter) {
  const version = versionOf(filter.companyId)
  const where = whereOf(filter)
  if (!filter.search?.trim()) {
    return db
      .select({ total: sql<number>`count(*)::int`.mapWith(Number), version })
      .from(L)
      .where(where)
  }
  const probe = probeOf(filter)
  const walked = sql`(select count(*) from (select 1 from ${L} where ${where}
    order by ${L.companyId}, ${L.learnerHash} limit ${sql.raw(String(LEARNER_SEARCH_COUNT_CAP + 1))}) as walked)`
  const indexed = sql`(select count(*) from ${L} where ${where})`
  return db
    .select({
      total: sql<number>`(case when probe.n < ${sql.raw(String(LEARNER_SEARCH_PROBE_ROWS))} then probe.hits
        when probe.hits * ${sql.raw(String(DENSE_ONE_IN))} >= probe.n then ${walked} else ${indexed} end)::int`.mapWith(
        Number,
      ),
      version,
    })
    .from(probe)
}

export function createLearnersRepository(db: DbOrTx) {
  const orderOf = ({ sort, order }: LearnerOrder, reverse = false) => {
    const dir = (order === 'desc') !== reverse ? sql`desc` : sql`asc`
    return [sql`${SORT_KEYS[sort].key} ${dir}`, sql`${L.learnerHash} ${dir}`]
  }

  return {
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
    ): Promise<{ rows: LearnerRow[]; version: number | null }> {
      const term = filter.search?.trim() ?? ''
      const walk = nearerEnd(total, limit, offset)
      const read = async (source: SQL | typeof L, where: SQL | undefined) => {
        const ids = db
          .select({ hash: sql<bigint>`${L.learnerHash}`.as('page_hash') })
          .from(source as typeof L)
          .where(where)
          .orderBy(...orderOf(order, walk.fromEnd))
          .limit(walk.limit)
          .offset(walk.offset)
          .as('page')
        const found = await db
          .select({ ...rowColumns, version: versionOf(filter.companyId) })
          .from(ids)
          .innerJoin(L, and(eq(L.companyId, filter.companyId), eq(L.learnerHash, ids.hash)))
          .orderBy(...orderOf(order))
        return { rows: found.map(({ version: _v, ...row }) => row), version: found[0]?.version ?? null }
      }
      const { search: _term, ...unsearched } = filter
      return searchedPage({
        table: L,
        term,
        total,
        limit,
        offset,
        where: whereOf(filter),
        unsearched: () => whereOf(unsearched),
        match: () => searchOf(term),
        order: orderOf(order),
        read,
      })
    },

    /**
     * Whether a search of one or two letters is rare enough to gather all its matches (`gather`
     * with `all`): the probe of learnerTotalsQuery finds it in fewer than one in ten of the
     * company's learners, or the company has fewer than the probe reads. Such a term's matches
     * are a tenth of the company at most, and the trigram index finds them; without a limit the
     * planner takes that index (with one, for a term it thinks common, it may read the table).
     */
    async sparse(filter: LearnerFilter): Promise<boolean> {
      const [row] = await db
        .select({
          sparse: sql<boolean>`probe.n < ${sql.raw(String(LEARNER_SEARCH_PROBE_ROWS))}
            or probe.hits * ${sql.raw(String(DENSE_ONE_IN))} < probe.n`,
        })
        .from(probeOf(filter))
      return row?.sparse === true
    },

    /**
     * A search's total and page from one gathering of its matches (LEARNER_SEARCH_GATHER_ROWS, or
     * every one with `all`), with the company's version, in one statement. `rows` is null when
     * the matches were more than gathered: the total is then the cap's, and the page is read with
     * page() as a search past the cap.
     */
    async gather(
      filter: LearnerFilter,
      order: LearnerOrder,
      limit: number,
      offset: number,
      all = false,
    ): Promise<{ totals: LearnerTotals; rows: LearnerRow[] | null; version: number | null }> {
      const matches = db
        .select({ hash: L.learnerHash, key: sql`${SORT_KEYS[order.sort].key}`.as('match_key') })
        .from(L)
        .where(whereOf(filter))
        .$dynamic()
      const matched = db.$with('matched').as(all ? matches : matches.limit(LEARNER_SEARCH_GATHER_ROWS))
      const counts = db
        .select({ n: sql<number>`count(*)`.mapWith(Number).as('n') })
        .from(matched)
        .as('counts')
      const dir = order.order === 'desc' ? sql`desc` : sql`asc`
      const page = db
        .select({ hash: sql<bigint>`${matched.hash}`.as('page_hash') })
        .from(matched)
        .orderBy(sql`${matched.key} ${dir}`, sql`${matched.hash} ${dir}`)
        .limit(limit)
        .offset(offset)
        .as('page')
      const found = await db
        .with(matched)
        .select({ n: counts.n, version: versionOf(filter.companyId), ...rowColumns })
        .from(counts)
        .leftJoin(page, sql`true`)
        .leftJoin(L, and(eq(L.companyId, filter.companyId), eq(L.learnerHash, page.hash)))
        .orderBy(...orderOf(order))
      const { n, version } = found[0]!
      const capped = n > LEARNER_SEARCH_COUNT_CAP
      const totals = { total: capped ? LEARNER_SEARCH_COUNT_CAP : n, capped }
      if (!all && n >= LEARNER_SEARCH_GATHER_ROWS) return { totals, rows: null, version }
      const rows: LearnerRow[] = []
      for (const { n: _n, version: _v, ...row } of found) if (row.learnerHash !== null) rows.push(row as LearnerRow)
      return { totals, rows, version }
    },

    /**
     * A search's learners, counted up to the cap (without a search the kept counts answer: see
     * overview).
     */
    async totals(filter: LearnerFilter): Promise<LearnerTotals & { version: number | null }> {
      const [row] = await learnerTotalsQuery(db, filter)
      const capped = Boolean(filter.search?.trim()) && row!.total > LEARNER_SEARCH_COUNT_CAP
      return { total: capped ? LEARNER_SEARCH_COUNT_CAP : row!.total, capped, version: row!.version }
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
      const courses = sql`(
        select coalesce(json_agg(json_build_object('id', c.course_id, 'title', c.course_title)
          order by lower(c.course_title), c.course_id), '[]'::json)
        from (
          select distinct on (lower(${dispatch.courseTitle}), ${dispatch.courseId})
            ${dispatch.courseId} as course_id, ${dispatch.courseTitle} as course_title
          from ${dispatch}
          where ${and(eq(dispatch.destinationId, filter.companyId), isNull(dispatch.removedAt))}
          order by lower(${dispatch.courseTitle}), ${dispatch.courseId}
        ) as c)`
      const facetTotal = facet
        ? sql`(select ${companyLearnerFacet.learners} from ${companyLearnerFacet}
            where ${and(eq(companyLearnerFacet.companyId, filter.companyId), eq(companyLearnerFacet.facet, facet))})`
        : sql`null`
      const result = (await db.execute(sql`
        select s.learners as "total", s.version as "version", coalesce(s.building, false) as "building", ${facetTotal} as "facetTotal", ${courses} as "courses"
        from (select 1) as one
        left join ${companyLearnerStat} as s on s.company_id = ${filter.companyId}`)) as unknown as {
        rows: {
          total: number | null
          version: string | number | null
          building: boolean | null
          facetTotal: number | null
          courses: unknown
        }[]
      }
      const row = result.rows[0]
      const courseList = (typeof row?.courses === 'string' ? JSON.parse(row.courses) : row?.courses) as
        { id: string; title: string }[] | null
      return {
        total: Number(row?.total ?? 0),
        facetTotal: facet ? Number(row?.facetTotal ?? 0) : null,
        version: row?.version === null || row?.version === undefined ? null : Number(row.version),
        courses: courseList ?? [],
        building: row?.building === true,
      }
    },
  }
}
export type LearnersRepository = ReturnType<typeof createLearnersRepository>
