import { eq, sql, type SQL } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { jsonArrayText } from '../../db/json-rows'
import { runStatement, statementCache, toVersion } from '../../db/statement'
import {
  L,
  LEARNER_SEARCH_COUNT_CAP,
  LP,
  SORT_KEYS,
  inputOf,
  rowsJsonSql,
  versionOf,
  whereOf,
  whereSql,
  type LearnerFilter,
  type LearnerOrder,
  type LearnerTotals,
} from './learners.sql'

/**
 * A search of three characters or more gathers at most this many of its matches once,
 * through the trigram index, and counts them and takes its page from them in one statement
 * (LearnerSearch.gather), as the report does (REPORT_SEARCH_GATHER_ROWS). A common surname
 * matches thousands of learners of a large company: counting them walked the company's rows, then
 * the page sorted them from the index again; gathered, the index is read once.
 */
export const LEARNER_SEARCH_GATHER_ROWS = 3_000

/** Learners a search's count reads first, in primary-key order (a hash: any of the company's). */
export const LEARNER_SEARCH_PROBE_ROWS = 1_000
/** A term matching one learner in this many of the probe, or more, is dense (below). */
const DENSE_ONE_IN = 10

/** The probe (learnerTotalsQuery) as a subquery `probe` of one row: hits among n learners read. */
function probeOf(filter: LearnerFilter): SQL {
  return sql`(select count(*) filter (where ${whereOf(filter)}) as hits, count(*) as n
    from (select * from ${L} where ${eq(L.companyId, filter.companyId)}
          order by ${L.companyId}, ${L.learnerHash} limit ${sql.raw(String(LEARNER_SEARCH_PROBE_ROWS))}) as ${L}) as probe`
}

/**
 * The count of a filter's learners (a search's up to the cap, LEARNER_SEARCH_COUNT_CAP + 1) and
 * the company's version, in one statement. A search (of one or two letters: longer ones gather,
 * LearnerSearch.gather) first reads LEARNER_SEARCH_PROBE_ROWS of the company's learners in
 * primary-key order and tests them. That is the whole company if it has fewer; a term dense in
 * them (one in ten or more) walks the company's rows in that order to the cap, a few thousand rows;
 * a rarer one is counted through the trigram index, a tenth of the company at most. Either alone
 * is slow for some terms in a large company: the walk reads far for a term of a few thousand
 * matches, the index would read every learner for a term in every e-mail. Unordered, the cap's
 * limit read the whole table from its start.
 */
export function learnerTotalsQuery(db: DbOrTx, filter: LearnerFilter, dense = false) {
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
  // A term the caller's probe already found dense (LearnerSearch.sparse) is not probed again.
  if (dense)
    return db.select({ total: sql<number>`${walked}::int`.mapWith(Number), version }).from(sql`(select 1) as one`)
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

/** Built gathering statements by shape (db/statement.ts). */
const gatherStatements = statementCache(200)

/** A search's counts and gathered pages, on `db`. */
export function createLearnerSearch(db: DbOrTx) {
  return {
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
    ): Promise<{ totals: LearnerTotals; rowsJson: string | null; version: number | null }> {
      const { input, values, shape } = inputOf(filter)
      const key = JSON.stringify(['gather', ...shape, order.sort, order.order, all])
      const statement = gatherStatements.get(key, () => {
        const bound = all ? sql`` : sql` limit ${sql.raw(String(LEARNER_SEARCH_GATHER_ROWS))}`
        const dir = order.order === 'desc' ? sql`desc` : sql`asc`
        // The matches are read once (a CTE read twice is computed once), counted, and the page
        // sorted from them; only the page's learners are read again, by key.
        return sql`with matched as (
            select ${L.learnerHash} as hash, ${SORT_KEYS[order.sort].key} as match_key
            from ${L} where ${whereSql(input)}${bound})
          select (select count(*) from matched) as "n", ${versionOf(LP.companyId)} as "version",
            (select ${rowsJsonSql(order)} from (
                select hash from matched order by match_key ${dir}, hash ${dir}
                limit ${LP.limit} offset ${LP.offset}) as page
              join ${L} on ${L.companyId} = ${LP.companyId} and ${L.learnerHash} = page.hash) as "rowsJson"`
      })
      const [row] = await runStatement(db, statement, { ...values, limit, offset })
      const n = Number(row!.n)
      const version = toVersion(row!.version)
      const capped = n > LEARNER_SEARCH_COUNT_CAP
      const totals = { total: capped ? LEARNER_SEARCH_COUNT_CAP : n, capped }
      if (!all && n >= LEARNER_SEARCH_GATHER_ROWS) return { totals, rowsJson: null, version }
      return { totals, rowsJson: jsonArrayText(row!.rowsJson), version }
    },

    /**
     * A search's learners, counted up to the cap (without a search the kept counts answer: see
     * overview); `dense`: a short term LearnerSearch.sparse found common, walked to the cap.
     */
    async totals(filter: LearnerFilter, dense = false): Promise<LearnerTotals & { version: number | null }> {
      const [row] = await learnerTotalsQuery(db, filter, dense)
      const capped = Boolean(filter.search?.trim()) && row!.total > LEARNER_SEARCH_COUNT_CAP
      return { total: capped ? LEARNER_SEARCH_COUNT_CAP : row!.total, capped, version: row!.version }
    },
  }
}
export type LearnerSearch = ReturnType<typeof createLearnerSearch>
