import { and, asc, desc, eq, gte, isNotNull, isNull, lt, sql, type SQL } from 'drizzle-orm'
import type { CompletionStatus } from '@portal/shared'
import type { KeptRegistrationStats } from '../dispatches/dispatches.mapper'
import type { DbOrTx } from '../../db/client'
import { dispatch, dispatchStat, dispatchSummary, registration } from '../../db/schema'
import { jsonArraySql, jsonObjectSql } from '../../db/json-rows'
import { matchesTerm, nearerEnd, searchedPage } from '../../db/search'

export interface RegistrationFilter {
  dispatchId: string
  search?: string | undefined
  status?: CompletionStatus | undefined
  /** Last access at or after this instant. */
  from?: Date | undefined
  /** Last access strictly before this instant (the day after the inclusive end day). */
  before?: Date | undefined
}

export interface ReportTotals {
  total: number
  distinctLearners: number
  /** A search matched more than REPORT_SEARCH_COUNT_CAP rows: both figures stop at the cap. */
  capped: boolean
}

/**
 * Issue #13: a learner search counts its matches exactly up to this many, then shows "1,000+"
 * (each match is a row visit; a two-letter search of a 100,000-learner dispatch matched 6,000).
 */
export const REPORT_SEARCH_COUNT_CAP = 1_000

/**
 * Issue #13: a search of two characters or more gathers at most this many of its matches, once,
 * and counts them and takes its page from them in the same statement (ReportsRepository.gather).
 * A name matches about 2,000 registrations of the bench's 100,000-learner dispatch: counting them
 * (to the cap), walking the order and then sorting them read the trigram index twice, 18 ms;
 * gathered once, 11.5 ms. A term with more matches still counts to the cap from them ("1,000+") and
 * takes its page the other way (searchedPage).
 */
export const REPORT_SEARCH_GATHER_ROWS = 3_000

/**
 * A search the report gathers (above): two characters or more, which the trigram index serves (a
 * word start of two letters is a trigram: db/search.ts). Two letters with a status matched 1,448
 * registrations of the bench's big dispatch: 26 ms counted, walked and sorted, 12.8 ms gathered.
 * (The learners probe a shorter term first and gather it whole only when it is rare: their
 * table holds every company, and with a limit the planner may read all of it for two letters.)
 */
export const gathersMatches = (filter: RegistrationFilter) => [...(filter.search?.trim() ?? '')].length >= 2

export interface RegistrationRow {
  id: string
  learnerFirstName: string
  learnerLastName: string
  learnerEmail: string
  completionStatus: string
  successStatus: string
  scoreScaled: number | null
  totalSecondsTracked: number
  lastAccessDate: Date | null
}

/** The report's rows of a filter (live registrations of the dispatch); the export reads the same. */
export function whereOf(filter: RegistrationFilter): SQL {
  const conditions = [eq(registration.dispatchId, filter.dispatchId), isNull(registration.removedAt)]
  const term = filter.search?.trim()
  if (term) conditions.push(searchOf(term))
  if (filter.status) conditions.push(eq(registration.completionStatus, filter.status))
  if (filter.from) conditions.push(gte(registration.lastAccessDate, filter.from))
  if (filter.before) conditions.push(lt(registration.lastAccessDate, filter.before))
  return and(...conditions)!
}

/**
 * What a learner search looks in: first name, last name and e-mail as one text, which the trigram
 * index registration_learner_status_search_idx of migration 0020 holds (keep the two identical). It
 * covers the first name, the last name, "first last" and the e-mail.
 */
const LEARNER_TEXT = sql`lower(${registration.learnerFirstName} || ' ' || ${registration.learnerLastName} || ' ' || ${registration.learnerEmail})`

export const searchOf = (term: string) => matchesTerm(LEARNER_TEXT, term, { lowered: true })

/** The dispatch's registration version (migration 0008), as a column of the statement reading its registrations. */
const registrationVersionOf = (dispatchId: string) =>
  sql<
    number | null
  >`(select ${dispatchStat.version} from ${dispatchStat} where ${dispatchStat.dispatchId} = ${dispatchId})`.mapWith(
    Number,
  )

/** A filter without a search or a last-access window: its totals are kept (migration 0008). */
export const isKeptFilter = (filter: RegistrationFilter) => !filter.search?.trim() && !filter.from && !filter.before

/**
 * The totals of such a filter, from the dispatch's kept counts (read with the dispatch itself:
 * DispatchRow.registrationStats; none before its first registration).
 */
export function keptTotals(
  stats: KeptRegistrationStats | null | undefined,
  status: CompletionStatus | undefined,
): ReportTotals {
  if (!stats) return { total: 0, distinctLearners: 0, capped: false }
  const kept: Record<CompletionStatus | 'all', [total: number, learners: number]> = {
    all: [stats.registrations, stats.learners],
    completed: [stats.completed, stats.learnersCompleted],
    incomplete: [stats.incomplete, stats.learnersIncomplete],
    'not attempted': [stats.notAttempted, stats.learnersNotAttempted],
  }
  const [total, distinctLearners] = kept[status ?? 'all']
  return { total, distinctLearners, capped: false }
}

/** The report's order: newest last access first, never-accessed last, then id. */
const ORDER = [sql`${registration.lastAccessDate} desc nulls last`, asc(registration.id)]

/**
 * A page's registrations (joined as `registration`) as the JSON array the answer carries, in the
 * report's order, written by PostgreSQL (db/json-rows.ts): DECISIONS.md's units, the score 0..1
 * (the provider's scaled score is 0..100) and whole seconds, rounded as Math.round does.
 */
const rowsJsonSql = jsonArraySql(
  jsonObjectSql([
    { key: 'id', value: sql`${registration.id}`, kind: 'text' },
    { key: 'learnerFirstName', value: sql`${registration.learnerFirstName}`, kind: 'text' },
    { key: 'learnerLastName', value: sql`${registration.learnerLastName}`, kind: 'text' },
    { key: 'learnerEmail', value: sql`${registration.learnerEmail}`, kind: 'text' },
    { key: 'completionStatus', value: sql`${registration.completionStatus}`, kind: 'text' },
    { key: 'successStatus', value: sql`${registration.successStatus}`, kind: 'text' },
    { key: 'score', value: sql`${registration.scoreScaled} / 100`, kind: 'json' },
    { key: 'totalTimeTracked', value: sql`floor(${registration.totalSecondsTracked} + 0.5)::bigint`, kind: 'number' },
    { key: 'lastAccessDate', value: sql`${registration.lastAccessDate}`, kind: 'timestamp' },
  ]),
  sql.join(ORDER, sql`, `),
)

/** A report page: its registrations as JSON (rowsJsonSql), how many, and the version it was read at. */
export interface ReportPage {
  rowsJson: string
  rowCount: number
  version: number | null
}

async function readPage(db: DbOrTx, query: SQL): Promise<ReportPage> {
  const result = (await db.execute(query)) as unknown as {
    rows: { rowsJson: string; rowCount: unknown; version: unknown }[]
  }
  const row = result.rows[0]!
  return {
    rowsJson: row.rowsJson,
    rowCount: Number(row.rowCount),
    version: row.version === null || row.version === undefined ? null : Number(row.version),
  }
}

export function createReportsRepository(db: DbOrTx) {
  return {
    /**
     * Newest last access first, never-accessed last, then id (indexes registration_report_idx
     * and, with a status, registration_report_status_idx). Deferred join: the offset is walked
     * over the index alone (ids), and only the page's rows are read from the table. A page in
     * the second half of a known total is walked from the other end (the last page costs what
     * the first does).
     */
    async page(filter: RegistrationFilter, limit: number, offset: number, total: number | null): Promise<ReportPage> {
      const at = nearerEnd(total, limit, offset)
      const walk = at.fromEnd ? [sql`${registration.lastAccessDate} asc nulls first`, desc(registration.id)] : ORDER
      const read = async (source: SQL | typeof registration, where: SQL | undefined): Promise<ReportPage> => {
        const ids = db
          .select({ id: sql<string>`${registration.id}`.as('page_id') })
          .from(source as typeof registration)
          .where(where)
          .orderBy(...walk)
          .limit(at.limit)
          .offset(at.offset)
          .as('page')
        // The page's rows as JSON, with the dispatch's registration version read in the same
        // statement (the same snapshot).
        return readPage(
          db,
          sql`select ${rowsJsonSql} as "rowsJson", count(*) as "rowCount", ${registrationVersionOf(filter.dispatchId)} as "version"
            from ${ids} join ${registration} on ${registration.id} = ${ids.id}`,
        )
      }
      // A search's page as db/search.ts says (searchedPage).
      const term = filter.search?.trim() ?? ''
      const { search: _term, ...unsearched } = filter
      return searchedPage({
        table: registration,
        term,
        total,
        limit,
        offset,
        where: whereOf(filter),
        unsearched: () => whereOf(unsearched),
        match: () => searchOf(term),
        order: ORDER,
        read,
      })
    },

    /**
     * A search's totals and page from one gathering of its matches (REPORT_SEARCH_GATHER_ROWS),
     * with the dispatch's registration version, all in one statement. `rowsJson` is null when the
     * matches were more than gathered: the totals are then the cap's, and the page is read with
     * page() as a search past the cap.
     */
    async gather(
      filter: RegistrationFilter,
      limit: number,
      offset: number,
    ): Promise<{ totals: ReportTotals; rowsJson: string | null; version: number | null }> {
      const result = (await db.execute(sql`
        with "matched" as (
          select ${registration.id} as "id", ${registration.lastAccessDate} as "at", ${registration.learnerHash} as "learner"
          from ${registration} where ${whereOf(filter)} limit ${REPORT_SEARCH_GATHER_ROWS})
        select "counts"."n", "counts"."learners", ${registrationVersionOf(filter.dispatchId)} as "version",
          (select ${rowsJsonSql}
            from (select "id" from "matched" order by "at" desc nulls last, "id" limit ${limit} offset ${offset}) as "page"
            join ${registration} on ${registration.id} = "page"."id") as "rowsJson"
        from (select count(*) as "n", count(distinct "learner") as "learners" from "matched") as "counts"`)) as unknown as {
        rows: { n: unknown; learners: unknown; version: unknown; rowsJson: string }[]
      }
      const row = result.rows[0]!
      const n = Number(row.n)
      const version = row.version === null ? null : Number(row.version)
      const capped = n > REPORT_SEARCH_COUNT_CAP
      const totals = capped
        ? { total: REPORT_SEARCH_COUNT_CAP, distinctLearners: REPORT_SEARCH_COUNT_CAP, capped }
        : { total: n, distinctLearners: Number(row.learners), capped }
      if (n >= REPORT_SEARCH_GATHER_ROWS) return { totals, rowsJson: null, version }
      return { totals, rowsJson: row.rowsJson, version }
    },

    /**
     * Registrations and distinct learners of a search or a last-access window (a filter without
     * either takes the kept counts: keptTotals), with the dispatch's registration version they
     * were counted at (same statement). A date window is one index-only pass over the report
     * index (learner_hash is carried by it); a search, a pass over its trigram matches.
     */
    async totals(filter: RegistrationFilter): Promise<ReportTotals & { version: number | null }> {
      // A search stops at the cap (its matches are row visits); a date window is one index-only
      // pass. count(distinct) of 8-byte hashes sorts in memory (text keys spilled to disk).
      const rows = db
        .select({ learner: sql`${registration.learnerHash}`.as('learner') })
        .from(registration)
        .where(whereOf(filter))
        .$dynamic()
      const matching = (filter.search?.trim() ? rows.limit(REPORT_SEARCH_COUNT_CAP + 1) : rows).as('matching')
      const [row] = await db
        .select({
          total: sql<number>`count(*)::bigint`.mapWith(Number),
          distinctLearners: sql<number>`count(distinct ${matching.learner})::bigint`.mapWith(Number),
          version: registrationVersionOf(filter.dispatchId),
        })
        .from(matching)
      const capped = row!.total > REPORT_SEARCH_COUNT_CAP && Boolean(filter.search?.trim())
      if (!capped) return { ...row!, capped }
      return {
        total: REPORT_SEARCH_COUNT_CAP,
        distinctLearners: REPORT_SEARCH_COUNT_CAP,
        capped,
        version: row!.version,
      }
    },

    /**
     * Live registration rows (the staff count endpoint): the kept sums of live dispatches
     * (migration 0008) plus the rows of removed dispatches, which are few and indexed.
     */
    async countRegistrations(): Promise<number> {
      const [row] = await db
        .select({
          n: sql<number>`coalesce((select sum(${dispatchSummary.activeRegistrations}) from ${dispatchSummary}), 0)
            + coalesce((select sum(${dispatchStat.registrations}) from ${dispatchStat} join ${dispatch} on ${dispatch.id} = ${dispatchStat.dispatchId} where ${isNotNull(dispatch.removedAt)}), 0)`.mapWith(
            Number,
          ),
        })
        .from(sql`(select 1) as one`)
      return row?.n ?? 0
    },
  }
}
export type ReportsRepository = ReturnType<typeof createReportsRepository>
