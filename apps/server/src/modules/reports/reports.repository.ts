import { and, asc, desc, eq, gte, isNotNull, isNull, lt, sql, type SQL } from 'drizzle-orm'
import type { CompletionStatus } from '@portal/shared'
import type { KeptRegistrationStats } from '../dispatches/dispatches.mapper'
import type { DbOrTx } from '../../db/client'
import { dispatch, dispatchStat, dispatchSummary, registration } from '../../db/schema'
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

/** A report row's columns (RegistrationRow), as the page and the gathered search read them. */
const rowColumns = {
  id: registration.id,
  learnerFirstName: registration.learnerFirstName,
  learnerLastName: registration.learnerLastName,
  learnerEmail: registration.learnerEmail,
  completionStatus: registration.completionStatus,
  successStatus: registration.successStatus,
  scoreScaled: registration.scoreScaled,
  totalSecondsTracked: registration.totalSecondsTracked,
  lastAccessDate: registration.lastAccessDate,
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
    async page(
      filter: RegistrationFilter,
      limit: number,
      offset: number,
      total: number | null,
    ): Promise<{ rows: RegistrationRow[]; version: number | null }> {
      const order = [sql`${registration.lastAccessDate} desc nulls last`, asc(registration.id)]
      const at = nearerEnd(total, limit, offset)
      const walk = at.fromEnd ? [sql`${registration.lastAccessDate} asc nulls first`, desc(registration.id)] : order
      const read = async (source: SQL | typeof registration, where: SQL | undefined) => {
        const ids = db
          .select({ id: sql<string>`${registration.id}`.as('page_id') })
          .from(source as typeof registration)
          .where(where)
          .orderBy(...walk)
          .limit(at.limit)
          .offset(at.offset)
          .as('page')
        const found = await db
          .select({
            ...rowColumns,
            version: registrationVersionOf(filter.dispatchId),
          })
          .from(ids)
          .innerJoin(registration, eq(registration.id, ids.id))
          .orderBy(...order)
        // The dispatch's registration version, read in the same statement (an empty page has none).
        return {
          rows: found.map(({ version: _version, ...row }) => row),
          version: found[0]?.version ?? null,
        }
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
        order,
        read,
      })
    },

    /**
     * A search's totals and page from one gathering of its matches (REPORT_SEARCH_GATHER_ROWS),
     * with the dispatch's registration version, all in one statement. `rows` is null when the
     * matches were more than gathered: the totals are then the cap's, and the page is read with
     * page() as a search past the cap.
     */
    async gather(
      filter: RegistrationFilter,
      limit: number,
      offset: number,
    ): Promise<{ totals: ReportTotals; rows: RegistrationRow[] | null; version: number | null }> {
      const matched = db
        .$with('matched')
        .as(
          db
            .select({ id: registration.id, at: registration.lastAccessDate, learner: registration.learnerHash })
            .from(registration)
            .where(whereOf(filter))
            .limit(REPORT_SEARCH_GATHER_ROWS),
        )
      const counts = db
        .select({
          n: sql<number>`count(*)`.mapWith(Number).as('n'),
          learners: sql<number>`count(distinct ${matched.learner})`.mapWith(Number).as('learners'),
        })
        .from(matched)
        .as('counts')
      const page = db
        .select({ id: sql<string>`${matched.id}`.as('page_id') })
        .from(matched)
        .orderBy(sql`${matched.at} desc nulls last`, asc(matched.id))
        .limit(limit)
        .offset(offset)
        .as('page')
      const found = await db
        .with(matched)
        .select({
          n: counts.n,
          learners: counts.learners,
          version: registrationVersionOf(filter.dispatchId),
          ...rowColumns,
        })
        .from(counts)
        .leftJoin(page, sql`true`)
        .leftJoin(registration, eq(registration.id, page.id))
        .orderBy(sql`${registration.lastAccessDate} desc nulls last`, asc(registration.id))
      const { n, learners, version } = found[0]!
      const capped = n > REPORT_SEARCH_COUNT_CAP
      const totals = capped
        ? { total: REPORT_SEARCH_COUNT_CAP, distinctLearners: REPORT_SEARCH_COUNT_CAP, capped }
        : { total: n, distinctLearners: learners, capped }
      if (n >= REPORT_SEARCH_GATHER_ROWS) return { totals, rows: null, version }
      const rows: RegistrationRow[] = []
      for (const { n: _n, learners: _l, version: _v, id, ...row } of found) {
        if (id !== null) rows.push({ id, ...row } as RegistrationRow)
      }
      return { totals, rows, version }
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
